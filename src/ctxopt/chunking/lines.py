"""Line ranges: blank trimming, splitting long ranges, and the line-window fallback."""

from __future__ import annotations

import string
from posixpath import basename

from ctxopt.chunking.draft import Draft
from ctxopt.types import ChunkKind

WINDOW_LINES = 60
MAX_CHUNK_LINES = 500
HEAVY_LINES = 150  # a longer and heavy chunk is cut into pieces (build.split_long)
_PLAIN_ASCII = bytes(string.ascii_letters + " .,'\n", "ascii")


def trim(lines: list[str], start: int, end: int) -> tuple[int, int] | None:
    """The range without blank lines at either end (1-based), None when all blank."""
    while start <= end and not lines[start - 1].strip():
        start += 1
    while end >= start and not lines[end - 1].strip():
        end -= 1
    return (start, end) if start <= end else None


def split_range(
    lines: list[str], start: int, end: int, target: int, hard: int = MAX_CHUNK_LINES
) -> list[tuple[int, int]]:
    """Cut start..end into pieces of about target lines, preferring to cut at blank lines.

    No piece is longer than max(target, hard) lines; blank edges are trimmed.
    """
    limit = max(target, 1)
    pieces: list[tuple[int, int]] = []
    cur = start
    while cur <= end:
        if end - cur + 1 <= limit:
            cut = end
        else:
            cut = _blank_cut(lines, cur, min(end, cur + limit - 1), limit)
        span = trim(lines, cur, cut)
        if span:
            pieces.append(span)
        cur = cut + 1
    return pieces


def _blank_cut(lines: list[str], start: int, stop: int, limit: int) -> int:
    """The last line before a blank line in the second half of start..stop, else stop."""
    low = start + limit // 2
    for line_no in range(stop, low - 1, -1):
        if not lines[line_no - 1].strip():
            return line_no
    return stop


def is_prose(lines: list[str]) -> bool:
    """True when the text reads like prose (mostly letters and spaces)."""
    sample = "\n".join(lines[:200])
    if not sample.strip():
        return True
    if sample.isascii():  # the usual case, counted in C: letters and " .,'\n" deleted
        plain = len(sample) - len(sample.encode("ascii").translate(None, _PLAIN_ASCII))
    else:
        plain = sum(ch.isalpha() or ch in " .,'\n" for ch in sample)
    return plain / len(sample) > 0.85


def window_drafts(path: str, lines: list[str], kind: ChunkKind) -> list[Draft]:
    """Consecutive windows of WINDOW_LINES lines; blank-only windows are dropped."""
    name = basename(path)
    drafts: list[Draft] = []
    for start in range(1, len(lines) + 1, WINDOW_LINES):
        span = trim(lines, start, min(len(lines), start + WINDOW_LINES - 1))
        if span is None:
            continue
        piece = name if not drafts else f"{name}#{len(drafts) + 1}"
        code = kind not in (ChunkKind.DOC, ChunkKind.CONFIG)
        drafts.append(Draft(kind, piece, piece, span[0], span[1], code=code))
    return drafts
