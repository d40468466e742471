"""One run of an external command: the prompt written to its stdin while its stdout and stderr
are read a piece at a time, so what it prints is held only up to a cap.

POSIX: the command runs in its own process group, killed as a whole when it is stopped,
and when this process is ended by SIGTERM or SIGHUP while it runs (`timeout`, a cancelled CI
job, a closed terminal): its own session hears neither, and would run on, paid for, for ever.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import IO

# an answer is a few KB of JSON (rarely 100 KB); past this the command is stopped
MAX_ANSWER_BYTES = 4 * 1024 * 1024
MAX_ERROR_BYTES = 64 * 1024  # of stderr, the last bytes are kept
POLL_SECONDS = 0.2
PIPE_GRACE = 1.0  # after the command ended, how long its pipes may stay open
_READ_SIZE = 64 * 1024
_WRITE_SIZE = 512  # at most PIPE_BUF: a write to a writable pipe never blocks


class Ending(str, Enum):
    CLOSED = "closed"  # the output closed (or the command ended PIPE_GRACE ago)
    TIMEOUT = "timeout"  # the command ran past the timeout; its group was killed
    TOO_LONG = "too_long"  # stdout passed MAX_ANSWER_BYTES; its group was killed


@dataclass(frozen=True)
class Output:
    ending: Ending
    stdout: bytes  # at most MAX_ANSWER_BYTES + one read
    stderr: bytes  # its last MAX_ERROR_BYTES
    returncode: int | None  # None when the command was stopped


def run_command(argv: list[str], data: bytes, timeout: float) -> Output:
    """Run argv with data on stdin; read its output until it closes, the cap, or the timeout."""
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    try:
        with _killed_if_we_are_ended(process):
            ending, out, err = _read(process, data, deadline)
            if ending is Ending.CLOSED:
                ending = _wait(process, deadline)
    except BaseException:
        kill_group(process)
        raise
    finally:
        for pipe in (process.stdin, process.stdout, process.stderr):
            _close(pipe)
    if ending is not Ending.CLOSED:
        kill_group(process)
        process.wait()
        return Output(ending, bytes(out), bytes(err), None)
    return Output(ending, bytes(out), bytes(err), process.returncode)


_ENDING_SIGNALS = tuple(  # Windows has no SIGHUP
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def _killed_if_we_are_ended(process: subprocess.Popen[bytes]) -> Iterator[None]:
    """While the command runs, SIGTERM and SIGHUP (where they would end this process: their
    default action) kill its group first, then end this process as the signal would."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers
        return
    taken = [s for s in _ENDING_SIGNALS if signal.getsignal(s) == signal.SIG_DFL]

    def end(signum: int, _frame: object) -> None:
        kill_group(process)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    for signum in taken:
        signal.signal(signum, end)
    try:
        yield
    finally:
        for signum in taken:
            signal.signal(signum, signal.SIG_DFL)


def _read(
    process: subprocess.Popen[bytes], data: bytes, deadline: float
) -> tuple[Ending, bytearray, bytearray]:
    """Feed stdin and read stdout and stderr until both close.  Once the command itself has
    ended, PIPE_GRACE seconds more: a process it left behind may hold them open (its
    answer is complete, and waiting for the timeout would throw it away); that group is
    killed and what is left in the pipes read."""
    out, err = bytearray(), bytearray()
    view, sent = memoryview(data), 0
    ended: float | None = None
    with selectors.DefaultSelector() as selector:
        assert process.stdin and process.stdout and process.stderr
        if data:
            selector.register(process.stdin, selectors.EVENT_WRITE)
        else:
            _close(process.stdin)
        selector.register(process.stdout, selectors.EVENT_READ)
        selector.register(process.stderr, selectors.EVENT_READ)
        while any(key.events & selectors.EVENT_READ for key in selector.get_map().values()):
            now = time.monotonic()
            if now >= deadline:
                return Ending.TIMEOUT, out, err
            if process.poll() is not None:
                ended = ended if ended is not None else now
                if now - ended >= 2 * PIPE_GRACE:
                    break  # killed PIPE_GRACE ago, and something outside its group holds them
                if now - ended >= PIPE_GRACE:
                    kill_group(process)  # what it left behind; the answer is read
            for key, _ in selector.select(min(POLL_SECONDS, deadline - now)):
                if key.fileobj is process.stdin:
                    sent = _write(selector, process.stdin, view, sent)
                    continue
                chunk = os.read(key.fd, _READ_SIZE)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.fileobj is process.stdout:
                    out += chunk
                    if len(out) > MAX_ANSWER_BYTES:
                        return Ending.TOO_LONG, out[:MAX_ANSWER_BYTES], err
                else:
                    err += chunk
                    del err[:-MAX_ERROR_BYTES]
    return Ending.CLOSED, out, err


def _write(selector: selectors.BaseSelector, pipe: IO[bytes], view: memoryview, sent: int) -> int:
    """One piece of the prompt to stdin; stdin closed after the last (or when the command
    stopped reading it)."""
    try:
        sent += os.write(pipe.fileno(), view[sent : sent + _WRITE_SIZE])
    except BrokenPipeError:
        sent = len(view)
    if sent >= len(view):
        selector.unregister(pipe)
        _close(pipe)
    return sent


def _wait(process: subprocess.Popen[bytes], deadline: float) -> Ending:
    """The command closed its output; it still has until the deadline to end."""
    try:
        process.wait(timeout=max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        return Ending.TIMEOUT
    return Ending.CLOSED


def _close(pipe: IO[bytes] | None) -> None:
    if pipe is not None:
        with contextlib.suppress(OSError):
            pipe.close()


def kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
