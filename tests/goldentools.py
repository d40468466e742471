"""Golden files: saved expected output, a diff on mismatch, rewritten only on request.

A missing golden file fails like a different one: a test that wrote its own expected output
could never fail.  Set CTXOPT_UPDATE_GOLDEN=1 to write or rewrite the files after a
deliberate change, then review them with `git diff` before committing.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

ENV_UPDATE = "CTXOPT_UPDATE_GOLDEN"


def updating() -> bool:
    return os.environ.get(ENV_UPDATE, "") not in ("", "0")


def check_golden(golden: Path, produced: str, *, hint: str = "") -> None:
    """Fail unless produced equals the golden file's text (a missing file fails too)."""
    if updating():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(produced, encoding="utf-8")
        return
    how = f"{ENV_UPDATE}=1 to accept" + (f"; {hint}" if hint else "")
    if not golden.exists():
        pytest.fail(f"golden file {golden} is missing ({how})")
    expected = golden.read_text(encoding="utf-8")
    if produced != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), produced.splitlines(True), str(golden), "produced"
            )
        )
        pytest.fail(f"{golden.name} differs ({how}):\n{diff}")
