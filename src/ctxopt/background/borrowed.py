"""A background server takes on its caller's process state for one call: stdin, stdout
and stderr (the caller's own descriptors, so terminals, pipes and files behave as they
would in the caller), working directory, environment, umask and argv; all of it is put
back afterwards.  The first read of stdin or write to stdout can be announced (the caller
may run the command itself when the server is lost before it)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, cast

from ctxopt.background.protocol import Request


class CannotTakeOver(Exception):
    """The caller's state cannot be taken on (its folder is gone): it runs the command."""


@contextlib.contextmanager
def borrowed_process(
    request: Request, fds: list[int], on_first_use: Callable[[], None] | None = None
) -> Iterator[None]:
    """Inside the block this process reads and writes the caller's streams, in the
    caller's directory and environment; CannotTakeOver (nothing changed) when its directory
    cannot be entered.  on_first_use is called once, before the command first reads stdin
    or writes stdout (stderr does not count: a second run may repeat progress lines)."""
    saved_cwd = _cwd()
    try:
        os.chdir(request.cwd)
    except OSError as exc:
        raise CannotTakeOver(f"cannot enter {request.cwd}: {exc.strerror}") from None
    saved_fds = [os.dup(fd) for fd in (0, 1, 2)]
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_env = dict(os.environ)
    saved_argv = sys.argv
    saved_umask = os.umask(request.umask)
    _flush(saved_streams[1:])
    try:
        for target, fd in zip((0, 1, 2), fds, strict=True):
            os.dup2(fd, target)
        sys.stdin, sys.stdout, sys.stderr = _streams()
        if on_first_use is not None:
            once = _Once(on_first_use)
            sys.stdin, sys.stdout = FirstUse.of(sys.stdin, once), FirstUse.of(sys.stdout, once)
        _switch_environment(dict(request.env))
        sys.argv = ["ctxopt", *request.argv]
        yield
    finally:
        _flush((sys.stdout, sys.stderr))
        sys.argv = saved_argv
        _switch_environment(saved_env)
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        for target, fd in zip((0, 1, 2), saved_fds, strict=True):
            os.dup2(fd, target)
            os.close(fd)
        os.umask(saved_umask)
        os.chdir(saved_cwd)


class _Once:
    def __init__(self, action: Callable[[], None]) -> None:
        self._action: Callable[[], None] | None = action

    def __call__(self) -> None:
        action, self._action = self._action, None
        if action is not None:
            action()


class FirstUse:
    """A text stream that calls `used` before its first read or write of anything (its
    binary `buffer` counts as used once asked for); everything else goes to the stream."""

    def __init__(self, stream: TextIO, used: Callable[[], None]) -> None:
        self._stream = stream
        self._used = used

    @classmethod
    def of(cls, stream: TextIO, used: Callable[[], None]) -> TextIO:
        return cast(TextIO, cls(stream, used))

    def write(self, text: str) -> int:
        if text:
            self._used()
        return self._stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        self._used()
        self._stream.writelines(lines)

    def read(self, size: int = -1) -> str:
        self._used()
        return self._stream.read(size)

    def readline(self, size: int = -1) -> str:
        self._used()
        return self._stream.readline(size)

    def readlines(self, hint: int = -1) -> list[str]:
        self._used()
        return self._stream.readlines(hint)

    def __iter__(self) -> Iterator[str]:
        self._used()
        return iter(self._stream)

    @property
    def buffer(self) -> Any:
        self._used()
        return self._stream.buffer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def flush_output() -> None:
    """Deliver what the command left buffered.  Where a write fails (a reader gone, or a
    Ctrl-C while a full pipe blocked it) the rest goes to the null device instead, so that
    nothing later blocks on it; the KeyboardInterrupt is raised again afterwards."""
    interrupted = False
    for stream, fd in ((sys.stdout, 1), (sys.stderr, 2)):
        try:
            stream.flush()
        except BaseException as exc:
            interrupted = interrupted or isinstance(exc, KeyboardInterrupt)
            _to_null(fd)
            with contextlib.suppress(Exception):
                stream.flush()
    if interrupted:
        raise KeyboardInterrupt


def _to_null(fd: int) -> None:
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _switch_environment(wanted: dict[str, str]) -> None:
    """Make os.environ wanted, touching only the variables that differ: each change rewrites
    the C library's environment, which a native thread reading it meanwhile (Lance's) may
    find half-made, so there are as few as there can be (a caller's environment and the
    server's differ in a few variables, where clearing and refilling rewrote all of them)."""
    for name in [name for name in os.environ if name not in wanted]:
        del os.environ[name]
    for name, value in wanted.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def close_all(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _streams() -> tuple[TextIO, TextIO, TextIO]:
    """Text streams over descriptors 0-2 set up as Python sets up its own at start: stdout
    line-buffered on a terminal, stderr always, stderr's errors shown escaped."""
    encoding = sys.__stdout__.encoding if sys.__stdout__ is not None else "utf-8"
    stdin = open(0, encoding=encoding, closefd=False)  # noqa: SIM115
    stdout = open(1, "w", encoding=encoding, closefd=False, buffering=1 if os.isatty(1) else -1)  # noqa: SIM115
    stderr = open(2, "w", encoding=encoding, errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
    return stdin, stdout, stderr


def _flush(streams: tuple[TextIO | None, ...]) -> None:
    for stream in streams:
        if stream is not None:
            with contextlib.suppress(Exception):
                stream.flush()


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:  # the folder this process was in is gone
        return "/"
