"""Eliding rows of a text behind markers (the marker itself: `languages.elision`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ctxopt import tokens
from ctxopt.languages.elision import is_marker, marker

__all__ = ["apply_elision", "is_marker", "marker", "runs", "shows_code"]


def shows_code(text: str) -> bool:
    """True when text has a line that is neither blank nor an elision marker."""
    return any(
        line.strip() and not is_marker(line.encode("utf-8", "replace")) for line in text.split("\n")
    )


def runs(rows: set[int]) -> Iterator[tuple[int, int]]:
    """Maximal runs of consecutive rows, as (first, last) pairs."""
    ordered = sorted(rows)
    while ordered:
        first = last = ordered.pop(0)
        while ordered and ordered[0] == last + 1:
            last = ordered.pop(0)
        yield first, last


def apply_elision(
    lines: list[str],
    elided: set[int],
    language: str,
    start_line: int,
    *,
    blocks: Iterable[tuple[int, int, int]] = (),
) -> str:
    """lines with each run of elided rows replaced by a marker, where that saves tokens.

    blocks are (header row, first row, last row) of indented blocks (Python): a marker
    that would be the whole body of a kept header gets a ``...`` statement before it,
    so the block still parses.
    """
    blocks = list(blocks)
    replace: dict[int, tuple[int, str]] = {}
    for first, last in runs(elided):
        body = [lines[r] for r in range(first, last + 1)]
        if not any(b.strip() for b in body):
            continue
        lead = next(b for b in body if b.strip())
        prefix = lead[: len(lead) - len(lead.lstrip())]
        if any(h not in elided and h < first <= top and end <= last for h, top, end in blocks):
            prefix += "... "
        text = marker(start_line + first, start_line + last, language, prefix)
        if tokens.count("\n".join(body)) > tokens.count(text):
            replace[first] = (last, text)
    out, row = [], 0
    while row < len(lines):
        if row in replace:
            last, text = replace[row]
            out.append(text)
            row = last + 1
        else:
            out.append(lines[row])
            row += 1
    return "\n".join(out)
