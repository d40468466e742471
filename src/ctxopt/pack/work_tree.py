"""What the pack reads from the work tree: whether only blank lines separate two chunks of
a file, and where each row of a class summary sits in its file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ctxopt.chunking import source_lines
from ctxopt.types import Chunk


class WorkTree:
    """The lines of the files a pack shows, each file read once (None: it cannot be read), and
    read only for the entries that need them."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._files: dict[str, list[str] | None] = {}
        self._outlines: dict[str, tuple[int, ...] | None] = {}

    def lines(self, path: str) -> list[str] | None:
        if path not in self._files:
            self._files[path] = source_lines(self._root / path)
        return self._files[path]

    def only_blank_between(self, before: Chunk, after: Chunk) -> bool:
        """True when only blank lines separate the two chunks; no when the file cannot be
        read or no longer matches the chunks at their edges (edited since indexing)."""
        lines = self.lines(before.path)
        if lines is None or before.path != after.path or after.start_line > len(lines):
            return False
        last = (before.text.splitlines() or [""])[-1]
        first = (after.text.splitlines() or [""])[0]
        edges = (
            lines[before.end_line - 1].rstrip() == last.rstrip()
            and lines[after.start_line - 1].rstrip() == first.rstrip()
        )
        gap = lines[before.end_line : after.start_line - 1]
        return edges and all(not line.strip() for line in gap)

    def outline_rows(self, chunk: Chunk) -> tuple[int, ...] | None:
        """The file line of each row of a class outline (a summary chunk), found in order in
        its file; None for another chunk, or when its file no longer holds every row (edited
        since indexing).  Each chunk is looked up once."""
        if not chunk.summary:
            return None
        if chunk.id not in self._outlines:
            lines = self.lines(chunk.path)
            self._outlines[chunk.id] = row_lines(lines, chunk) if lines is not None else None
        return self._outlines[chunk.id]


def row_lines(file_lines: Sequence[str], chunk: Chunk) -> tuple[int, ...] | None:
    """The file line of each row of the chunk's text, looked for in order within its range
    (a class summary repeats some of its class's lines); None when a row is not there."""
    numbers: list[int] = []
    at = chunk.start_line
    last = min(chunk.end_line, len(file_lines))
    for row in chunk.text.split("\n"):
        wanted = row.rstrip()
        while at <= last and file_lines[at - 1].rstrip() != wanted:
            at += 1
        if at > last:
            return None
        numbers.append(at)
        at += 1
    return tuple(numbers)


def left_out(
    rows: Sequence[int], file_lines: Sequence[str], start: int, end: int
) -> tuple[tuple[int, int], ...]:
    """The stretches of lines start..end that rows (ascending) do not show, without the
    blank lines at their edges (a stretch of blank lines only is not one)."""
    gaps: list[tuple[int, int]] = []
    at = start
    for row in (*rows, end + 1):
        first, last = at, row - 1
        while first <= last and not _filled(file_lines, first):
            first += 1
        while last >= first and not _filled(file_lines, last):
            last -= 1
        if first <= last:
            gaps.append((first, last))
        at = max(at, row + 1)
    return tuple(gaps)


def _filled(file_lines: Sequence[str], line: int) -> bool:
    return line <= len(file_lines) and bool(file_lines[line - 1].strip())
