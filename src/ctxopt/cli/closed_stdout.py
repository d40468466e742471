"""A reader that stops reading (`ctxopt pack ... | head -c 100`) ends the run quietly.

Every command and format behaves the same: no traceback, no message, exit 0 (the reader took
what it wanted; `set -o pipefail` scripts do not fail on it).  Python ignores SIGPIPE, so a
write to a closed pipe raises BrokenPipeError; click would turn that into a silent exit 1, so
stdout is wrapped to raise `OutputClosed` instead, which `ctxopt.cli.main` handles.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO, cast


class OutputClosed(Exception):
    """stdout's reader went away: nothing more can be delivered."""


class _GuardedStdout:
    """sys.stdout, with a closed pipe reported as OutputClosed."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise OutputClosed from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise OutputClosed from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard_stdout() -> None:
    """Wrap sys.stdout (once) so that a closed pipe raises OutputClosed."""
    if not isinstance(sys.stdout, _GuardedStdout) and sys.stdout is not None:
        sys.stdout = cast(TextIO, _GuardedStdout(sys.stdout))


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
