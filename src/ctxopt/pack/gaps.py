"""Whether only blank lines separate two chunks of a file, read from the work tree."""

from __future__ import annotations

from pathlib import Path

from ctxopt.chunking import source_lines
from ctxopt.pack.render import GapCheck
from ctxopt.types import Chunk


def blank_gap_checker(root: Path) -> GapCheck:
    """A check that reads each file once; it says no when the file cannot be read or no
    longer matches the chunks at their edges (edited since indexing)."""
    files: dict[str, list[str] | None] = {}

    def lines_of(path: str) -> list[str] | None:
        if path not in files:
            files[path] = source_lines(root / path)
        return files[path]

    def only_blank_between(before: Chunk, after: Chunk) -> bool:
        lines = lines_of(before.path)
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

    return only_blank_between
