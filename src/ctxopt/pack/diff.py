"""Packing for a git change: the hunks, the chunks they touch, and their neighbours."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable

from ctxopt import tokens
from ctxopt.config.settings import Settings
from ctxopt.errors import UsageError
from ctxopt.retrieve.api import ensure_fresh
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.retrieve.scoring import ScoredChunk

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.M)
MAX_DIFF_TOKENS = 4000


def _git(root: str, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", root, *args],
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
        )
    except OSError as exc:
        raise UsageError(f"git is not available: {exc.strerror}") from exc
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise UsageError(f"git diff failed: {message}")
    return done.stdout


def changed_ranges(diff_text: str) -> dict[str, list[tuple[int, int]]]:
    """New-side line ranges per file of a `git diff -U0` text (deletions: the line after)."""
    ranges: dict[str, list[tuple[int, int]]] = {}
    current = ""
    for line in diff_text.splitlines():
        if line.startswith("+++ "):
            target = line[4:].strip()
            current = target[2:] if target.startswith("b/") else ""
            continue
        match = HUNK.match(line)
        if match and current:
            start = int(match.group(1))
            count = int(match.group(2)) if match.group(2) is not None else 1
            ranges.setdefault(current, []).append((start, start + max(count, 1) - 1))
    return ranges


def diff_args(ref: str | None, staged: bool) -> list[str]:
    args = ["diff", "--no-color", "--no-ext-diff", "--relative"]
    if staged:
        args.append("--cached")
    if ref:
        args.append(ref)
    return args


def diff_hits(
    settings: Settings,
    *,
    ref: str | None,
    staged: bool,
    notify: Callable[[str], None] | None = None,
) -> tuple[tuple[ScoredChunk, ...], str]:
    """Chunks the change touches (mandatory in the pack) and the diff text as a preface."""
    root = str(settings.root)
    args = diff_args(ref, staged)
    ranges = changed_ranges(_git(root, *args, "-U0", "--", "."))
    if not ranges:
        raise UsageError("the diff is empty: nothing changed" + (f" against {ref}" if ref else ""))
    _freshness, reader = ensure_fresh(settings, refresh=True, notify=notify)
    source = CandidateSource(reader)
    hits: list[ScoredChunk] = []
    for chunk in source.in_files(ranges):
        if any(a <= chunk.end_line and chunk.start_line <= b for a, b in ranges[chunk.path]):
            hits.append(
                ScoredChunk(
                    chunk, 1.0, {"diff": 1.0}, ("touched by the change",), {}, mandatory=True
                )
            )
    hits.sort(key=lambda h: (h.chunk.path, h.chunk.start_line))
    text = tokens.truncate(_git(root, *args, "-U3", "--", "."), MAX_DIFF_TOKENS)
    preface = f"The change under review (git {' '.join(args[4:]) or 'diff'}):\n```diff\n{text}\n```"
    return tuple(hits), preface
