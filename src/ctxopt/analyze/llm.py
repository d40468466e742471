"""The external LLM command: prompt on stdin, answer on stdout, with a timeout and one repair.

Any command works (``llm -m X``, ``claude -p``, ``ollama run M``).  An answer that
exits non-zero, runs past the timeout, passes MAX_ANSWER_BYTES (the command is stopped
there), or is not the asked-for JSON gets one retry with a repair instruction; the
outcome is data (``Outcome``), never parsed text.
"""

from __future__ import annotations

import json
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, TypeVar

from ctxopt.analyze.memory import ShapeError
from ctxopt.analyze.pipes import MAX_ANSWER_BYTES, Ending, run_command
from ctxopt.analyze.prompts import repair_prompt
from ctxopt.errors import UsageError

T = TypeVar("T")
MAX_SHOWN_ERROR = 200
KEPT_OF_TOO_LONG = 64 * 1024  # characters of an answer past MAX_ANSWER_BYTES kept in the record


class Outcome(str, Enum):
    OK = "ok"
    REPAIRED = "repaired"  # the first answer failed, the repair succeeded
    EXIT = "exit"  # non-zero exit
    TIMEOUT = "timeout"
    TOO_LONG = "too_long"  # the command printed more than MAX_ANSWER_BYTES and was stopped
    NOT_JSON = "not_json"  # no JSON object, or one cut off
    WRONG_SHAPE = "wrong_shape"  # JSON, but not the asked-for object


@dataclass(frozen=True)
class Attempt:
    outcome: Outcome
    answer: str
    detail: str  # what went wrong, for the repair instruction and the warning
    error_line: str = ""  # the last line the command wrote on stderr
    exit_code: int | None = None  # None: it was stopped (or not run)


@dataclass(frozen=True)
class Call:
    """One logical call (with its retry): the parsed value when it worked."""

    outcome: Outcome
    attempts: tuple[Attempt, ...]
    value: Any = None

    @property
    def ok(self) -> bool:
        return self.outcome in (Outcome.OK, Outcome.REPAIRED)

    @property
    def detail(self) -> str:
        return self.attempts[-1].detail if self.attempts else ""

    def last_error(self) -> str:
        """The last attempt's failure for a person: its last stderr line, quoted, when there
        is one ("401 invalid api key" (exit code 1)), else what went wrong."""
        last = self.attempts[-1] if self.attempts else Attempt(self.outcome, "", "")
        if not last.error_line:
            return last.detail
        if last.outcome is Outcome.EXIT:
            return f'"{last.error_line}" (exit code {last.exit_code})'
        return f'"{last.error_line}" ({last.detail})'


def command_argv(command: str) -> list[str]:
    """The command split like a shell would; its program must exist."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"cannot parse the LLM command {command!r}: {exc}") from exc
    if not argv:
        raise UsageError("the LLM command is empty")
    if shutil.which(argv[0]) is None:
        raise UsageError(f"LLM command not found: {argv[0]} (check --llm / --final-llm)")
    return argv


def run_once(argv: list[str], prompt: str, timeout: float) -> Attempt:
    """Send prompt on stdin; the attempt's outcome so far (its JSON is not checked here).
    Kills the group on timeout and when the answer passes MAX_ANSWER_BYTES."""
    output = run_command(argv, prompt.encode("utf-8"), timeout)
    answer = output.stdout.decode("utf-8", errors="replace")
    error = output.stderr.decode("utf-8", errors="replace")
    last_line = next((line for line in reversed(error.splitlines()) if line.strip()), "")
    last_line = " ".join(last_line.split())[:MAX_SHOWN_ERROR]
    if output.ending is Ending.TIMEOUT:
        detail = f"no answer within {timeout:g} s (--timeout)"
        return Attempt(Outcome.TIMEOUT, "", detail, last_line)
    if output.ending is Ending.TOO_LONG:  # its start is kept for inspection, not all of it
        size = f"{MAX_ANSWER_BYTES // 2**20} MiB"
        detail = f"the command printed more than {size}, far more than an answer; it was stopped"
        return Attempt(Outcome.TOO_LONG, answer[:KEPT_OF_TOO_LONG], detail, last_line)
    if output.returncode != 0:
        message = " ".join(error.split())[:MAX_SHOWN_ERROR]
        detail = f"exit code {output.returncode}: {message}".rstrip(": ")
        return Attempt(Outcome.EXIT, answer, detail, last_line, output.returncode)
    return Attempt(Outcome.OK, answer, "", last_line, output.returncode)


def extract_json(answer: str) -> Any:
    """The first complete JSON object in an answer (fences and prose around it allowed).

    An object that runs to the end of the answer unfinished is a cut-off answer, not
    a reason to take an object nested inside it. When no object parses, the first one's
    error is named (a trailing comma is invalid JSON, not "no JSON object"), so the
    repair instruction tells the model what to mend."""
    if not answer.strip():
        raise ValueError("the answer is empty")
    decoder = json.JSONDecoder()
    end = len(answer.rstrip())
    position = answer.find("{")
    first: json.JSONDecodeError | None = None
    while position != -1:
        try:
            value, _ = decoder.raw_decode(answer, position)
            return value
        except json.JSONDecodeError as exc:
            if exc.pos >= end - 1:
                raise ValueError("the answer was cut off before its JSON object ended") from exc
            first = first or exc
            position = answer.find("{", position + 1)
    if first is not None:
        where = f"line {first.lineno}, column {first.colno}"
        raise ValueError(f"the answer's JSON object is not valid JSON: {first.msg} ({where})")
    raise ValueError("the answer holds no JSON object")


def call_json(argv: list[str], prompt: str, parse: Callable[[Any], T], *, timeout: float) -> Call:
    """Run the command; on failure retry once with a repair instruction."""
    attempts: list[Attempt] = []
    current = prompt
    for _ in range(2):
        ran = run_once(argv, current, timeout)
        outcome, answer, detail = ran.outcome, ran.answer, ran.detail
        if outcome is Outcome.OK and answer.strip() == current.strip():
            # the command echoed its prompt (`--llm cat`): the example JSON in the prompt
            # would parse as an answer that says nothing
            outcome, detail = (
                Outcome.NOT_JSON,
                "the answer repeats the prompt word for word: an echo, not a model",
            )
        if outcome is Outcome.OK:
            try:
                value = parse(extract_json(answer))
            except ShapeError as exc:
                outcome, detail = Outcome.WRONG_SHAPE, str(exc)
            except ValueError as exc:
                outcome, detail = Outcome.NOT_JSON, str(exc)
            else:
                attempts.append(replace(ran, outcome=Outcome.OK, detail=""))
                done = Outcome.OK if len(attempts) == 1 else Outcome.REPAIRED
                return Call(done, tuple(attempts), value)
        attempts.append(replace(ran, outcome=outcome, detail=detail))
        current = repair_prompt(prompt, detail)
    return Call(attempts[-1].outcome, tuple(attempts))
