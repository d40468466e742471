"""The task of `pack` and `query`: the argument, or standard input when it is `-` (a pasted log,
an issue body, the output of a failing command)."""

from __future__ import annotations

import sys

from ctxopt.errors import UsageError

FROM_STDIN = "-"
HELP = "The task, in your words; - reads it from standard input (a log, an issue)."


def readable_text(argument: str) -> str:
    """An argument as text: bytes that were not UTF-8 (Python keeps them as lone surrogates,
    as a task pasted from a Latin-1 log would be) replaced, as they are on standard input."""
    try:
        argument.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = argument.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            raw = argument.encode("utf-8", "replace")
        return raw.decode("utf-8", errors="replace")
    return argument


def task_text(argument: str) -> str:
    """The argument, or all of standard input for `-` (undecodable bytes replaced either way)."""
    if argument != FROM_STDIN:
        return readable_text(argument)
    stream = sys.stdin
    if stream is None or stream.closed:
        raise UsageError("the task is `-` but there is no standard input to read it from")
    data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode()
    return data.decode("utf-8-sig", errors="replace")  # a byte order mark is not the task's
