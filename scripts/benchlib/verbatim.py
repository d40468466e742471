"""The lines of a file a packed entry shows verbatim.

A whole chunk shows its range.  A class summary (a split class: header, fields, docstring and
each member's signature lines, no bodies) carries the class's whole range, but shows only the
lines it repeats: counting the range would credit it with every method body of the class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchlib.select import Span


def shown_runs(path: Path, start: int, end: int, content: str) -> list[tuple[int, int]]:
    """The runs of the file's lines start..end that an entry's content shows: the whole range
    when it has one line per line of it (the file is read only when it has not)."""
    if len(content.split("\n")) == end - start + 1:
        return [(start, end)]
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")  # lines end at \n only
        lines = [line.removesuffix("\r") for line in text.split("\n")]
    except OSError:
        return []
    return verbatim_runs(lines, start, end, content)


def verbatim_runs(
    file_lines: Sequence[str], start: int, end: int, content: str
) -> list[tuple[int, int]]:
    """The runs of lines in start..end (1-based, inclusive) that content repeats, in order:
    the whole range when content has one line per line of it."""
    shown = content.split("\n")
    if len(shown) == end - start + 1:
        return [(start, end)]
    runs: list[tuple[int, int]] = []
    at = start
    for line in shown:
        wanted = line.rstrip()
        while at <= end and at <= len(file_lines) and file_lines[at - 1].rstrip() != wanted:
            at += 1
        if at > end or at > len(file_lines):
            break
        if runs and runs[-1][1] == at - 1:
            runs[-1] = (runs[-1][0], at)
        else:
            runs.append((at, at))
        at += 1
    return runs


def split_span(span: Span, runs: Sequence[tuple[int, int]]) -> list[Span]:
    """The span as one span per run of lines it shows, its tokens counted on the first."""
    return [
        replace(span, start_line=first, end_line=last, tokens=span.tokens if i == 0 else 0)
        for i, (first, last) in enumerate(runs)
    ]
