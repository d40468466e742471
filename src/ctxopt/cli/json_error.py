"""A failed command's `--json` value: the error itself, on stdout.

`ctxopt pack TASK --json | jq .prompt` used to get nothing at all from a failed run (the
message went to stderr only), so the script went on with an empty value.  With `--json`, a
command that fails before it printed anything puts one JSON value on stdout,

    {"error": {"kind": "budget", "message": "...", "exit_code": 3}}

as well as the usual one line on stderr and the same exit code.  `kind` names the failure
(`usage`, `no_index`, `budget`, `index_busy`, ...; `internal` for a bug) so that a caller
can branch on it without reading the message's wording.  `mcp` is left alone: its stdout is
the protocol.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from ctxopt.cli.streams import OutputClosed, OutputFailed, stdout_written

NOT_JSON_OUTPUT = frozenset({"mcp"})  # commands whose stdout is not a JSON value


def wants_json(args: Sequence[str]) -> bool:
    """Whether the command line asks for JSON output (`--json` before any `--`)."""
    if not args or args[0] in NOT_JSON_OUTPUT:
        return False
    options = args[: list(args).index("--")] if "--" in args else args
    return "--json" in options


def error_value(kind: str, message: str, exit_code: int) -> dict[str, object]:
    """The JSON value a failed command prints under `--json`."""
    return {"error": {"kind": kind, "message": message, "exit_code": exit_code}}


def print_json_error(args: Sequence[str], kind: str, message: str, exit_code: int) -> None:
    """Print the error's JSON value on stdout when the command asked for JSON and has not
    printed anything yet (a command that printed its value and then failed keeps it alone);
    a stdout that cannot take it is left as it is (stderr has the message)."""
    if not wants_json(args) or stdout_written():
        return
    try:
        sys.stdout.write(json.dumps(error_value(kind, message, exit_code)) + "\n")
        sys.stdout.flush()
    except (OutputClosed, OutputFailed, OSError):  # the reader is gone: stderr said it
        return
