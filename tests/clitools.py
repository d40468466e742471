"""Running the real ctxopt CLI in a subprocess, for end-to-end tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def json(self) -> object:
        return json.loads(self.out)

    def hits(self) -> list[dict[str, Any]]:
        """A successful `query --json`'s hits."""
        assert self.code == 0, self.err
        found = self.json()
        assert isinstance(found, list)
        return found


CliRunner = Callable[..., Run]


def run_cli(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    prefix: Sequence[str] = (),
    stdin: str | None = None,
) -> Run:
    """ctxopt with args; prefix runs it through another command (setpriv, unshare ...); stdin:
    what its standard input holds."""
    full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "ctxopt.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=600,
        input=stdin,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def assert_one_line_error(result: Run) -> None:
    assert result.code != 0
    assert "Traceback" not in result.err
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    assert lines[0].startswith("ctxopt: error:")
