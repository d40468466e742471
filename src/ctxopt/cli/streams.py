"""The standard streams when they cannot take what ctxopt writes.

stdout: a reader that stops reading (`ctxopt pack ... | head -c 100`) ends the run quietly.
Every command and format behaves the same: no traceback, no message, exit 0 (the reader took
what it wanted; `set -o pipefail` scripts do not fail on it).  Python ignores SIGPIPE, so a
write to a closed pipe raises BrokenPipeError; click would turn that into a silent exit 1, so
stdout is wrapped to raise `OutputClosed` instead, which `ctxopt.cli.main` handles.  Any other
failure to deliver the product (a full disk, a stdout closed outright with `>&-`) is
`OutputFailed`: one line on stderr, exit 1.

stderr carries messages only, so a failure to write them (its reader gone: `2>&1 | head`, a
full disk) never costs the product or the exit code: from the first such failure messages
are dropped.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO, cast

from ctxopt.errors import CtxoptError


class OutputClosed(Exception):
    """stdout's reader went away: nothing more can be delivered."""


class OutputFailed(CtxoptError):
    """stdout cannot take the product (a full disk, a closed descriptor)."""

    kind = "output"


class _GuardedStdout:
    """sys.stdout, with a closed pipe reported as OutputClosed and other write errors as
    OutputFailed; with no stream at all (fd 1 closed) every write is an OutputFailed."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self.written = False  # has the command put anything on stdout yet

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputFailed("cannot write to standard output: it is closed")
        self.written = self.written or bool(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as exc:
            raise _failed(exc) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as exc:
            raise _failed(exc) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _failed(exc: OSError) -> OutputFailed:
    return OutputFailed(f"cannot write to standard output: {exc.strerror or exc}")


class _QuietStderr:
    """sys.stderr, whose write errors drop the message and every later one."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._broken = False

    def write(self, text: str) -> int:
        if not self._broken:
            try:
                return self._stream.write(text)
            except OSError:
                self._broken = True
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self._broken:
            try:
                self._stream.flush()
            except OSError:
                self._broken = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard_streams() -> None:
    """Wrap sys.stdout and sys.stderr (once each) as the module doc says.  A standard
    descriptor the process started without (`>&-`) is held on the null device first, so no
    file opened later takes its number (an index table written through `print`, or Lance's
    I/O threads polling it and panicking)."""
    _hold_closed_descriptors()
    if not isinstance(sys.stdout, _GuardedStdout):
        sys.stdout = cast(TextIO, _GuardedStdout(sys.stdout))
    if sys.stderr is not None and not isinstance(sys.stderr, _QuietStderr):
        sys.stderr = cast(TextIO, _QuietStderr(sys.stderr))


def _hold_closed_descriptors() -> None:
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            held = os.open(os.devnull, os.O_RDWR)  # the lowest free number: fd itself
            if held != fd:
                os.close(held)


def stdout_written() -> bool:
    """Whether anything went to the guarded stdout (False when it is not guarded)."""
    stream = sys.stdout
    return isinstance(stream, _GuardedStdout) and stream.written


def silence_stdout() -> None:
    """Point stdout's file descriptor at the null device, so that Python's last flush of
    what is still buffered succeeds instead of printing `Exception ignored`."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
    except (OSError, ValueError):
        fd = 1
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
