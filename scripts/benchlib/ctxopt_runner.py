"""Run the ctxopt CLI on a work tree and read its selections as spans."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchlib.gitutil import BenchError
from benchlib.select import Selection, Span, fill_budget, normalise_path
from benchlib.tokcount import SRC_DIR
from benchlib.verbatim import shown_runs, split_span

QUERY_TOP_K = 400
BUDGET_TOO_SMALL = 3  # ctxopt's exit code when the task alone is over the budget
_FIX_HINT = (
    "install it (pip install -e /work/main) so `ctxopt` is on PATH, "
    "or run the baselines alone with --methods bm25-file,bm25-window"
)


def _command_and_env() -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ, NO_COLOR="1")
    exe = shutil.which("ctxopt")
    if exe:
        return [exe], env
    path = os.pathsep.join(p for p in (str(SRC_DIR), env.get("PYTHONPATH", "")) if p)
    return [sys.executable, "-m", "ctxopt.cli"], dict(env, PYTHONPATH=path)


class CtxoptRunner:
    """`ctxopt index` then `ctxopt pack` (one call per budget) or `ctxopt query` (one call)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.command, self.env = _command_and_env()

    def check(self) -> None:
        """Fail early, with the fix, when the CLI or its index/pack/query command is missing."""
        for sub in ("index", self.mode):
            done = self._run([sub, "--help"], check=False)
            if done.returncode != 0:
                shown = " ".join(self.command)
                raise BenchError(
                    f"ctxopt CLI not usable: `{shown} {sub} --help` exited "
                    f"{done.returncode} ({_last_line(done.stderr)}); {_FIX_HINT}"
                )

    def select(self, task: str, worktree: Path, budgets: Sequence[int]) -> dict[int, Selection]:
        """The spans ctxopt selects for every budget, after refreshing the index."""
        self._run(["index", str(worktree), "--json", "--quiet"])
        if self.mode == "query":
            ranked = self.query(task, worktree)
            return {b: Selection.of_spans(fill_budget(ranked, b)) for b in budgets}
        return {b: self.pack(task, worktree, b) for b in budgets}

    def pack(self, task: str, worktree: Path, budget: int) -> Selection:
        args = ["pack", task, "--path", str(worktree), "--budget", str(budget)]
        args += ["--compression", "none", "--json"]
        done = self._run(args, check=False)
        if done.returncode == BUDGET_TOO_SMALL:
            return Selection((), 0)  # the task alone is over the budget: nothing shown
        payload = self._parse(args, self._checked(args, done).stdout)
        if not isinstance(payload, dict) or not isinstance(payload.get("chunks"), list):
            raise BenchError("ctxopt pack --json printed no `chunks` list")
        if not isinstance(payload.get("tokens"), int):
            raise BenchError("ctxopt pack --json printed no prompt `tokens` count")
        # Only lines shown verbatim count: a whole chunk, or the lines of an excerpt; a
        # signature, stub or path does not show the lines, a class summary only its own.
        spans: list[Span] = []
        for c in payload["chunks"]:
            if c.get("fidelity", "full") not in ("full", "excerpt"):
                continue
            span = _span(c, shown=True)
            content = c.get("compressed")
            if c.get("fidelity", "full") != "full" or not isinstance(content, str):
                spans.append(span)
                continue
            runs = shown_runs(worktree / str(c["file"]), span.start_line, span.end_line, content)
            spans.extend(split_span(span, runs))
        return Selection(tuple(spans), payload["tokens"])

    def query(self, task: str, worktree: Path) -> list[Span]:
        args = ["query", task, "--path", str(worktree), "-k", str(QUERY_TOP_K), "--json"]
        payload = self._json(args)
        if not isinstance(payload, list):
            raise BenchError("ctxopt query --json printed no JSON list")
        return [_span(item) for item in payload]

    def _json(self, args: list[str]) -> Any:
        return self._parse(args, self._run(args).stdout)

    @staticmethod
    def _parse(args: list[str], out: str) -> Any:
        try:
            return json.loads(out)
        except json.JSONDecodeError as exc:
            raise BenchError(f"ctxopt {args[0]} printed invalid JSON: {exc}") from exc

    def _run(self, args: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [*self.command, *args]
        done = subprocess.run(cmd, capture_output=True, text=True, env=self.env, check=False)
        return self._checked(args, done) if check else done

    @staticmethod
    def _checked(
        args: list[str], done: subprocess.CompletedProcess[str]
    ) -> subprocess.CompletedProcess[str]:
        if done.returncode != 0:
            raise BenchError(
                f"ctxopt {args[0]} exited {done.returncode}: {_last_line(done.stderr)}"
            )
        return done


def _span(item: Any, *, shown: bool = False) -> Span:
    try:
        start, end = (shown and item.get("shown_lines")) or (item["start_line"], item["end_line"])
        return Span(
            normalise_path(str(item["file"])),
            int(start),
            int(end),
            int(item["tokens"]),
            float(item.get("score", 0.0)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BenchError(f"ctxopt JSON item lacks file/start_line/end_line/tokens: {item}") from exc


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"
