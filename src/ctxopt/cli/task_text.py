"""The task of `pack` and `query`: the argument, or standard input when it is `-` (a pasted log,
an issue body, the output of a failing command)."""

from __future__ import annotations

import sys

from ctxopt.errors import UsageError

FROM_STDIN = "-"
HELP = "The task, in your words; - reads it from standard input (a log, an issue)."


def task_text(argument: str) -> str:
    """The argument, or all of standard input for `-` (undecodable bytes replaced)."""
    if argument != FROM_STDIN:
        return argument
    stream = sys.stdin
    if stream is None or stream.closed:
        raise UsageError("the task is `-` but there is no standard input to read it from")
    data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode()
    return data.decode("utf-8", errors="replace")
