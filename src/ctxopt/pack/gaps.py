"""Whether only blank lines separate two chunks of a file, read from the work tree."""

from __future__ import annotations

from pathlib import Path

from ctxopt.pack.render import GapCheck
from ctxopt.types import Chunk


def blank_gap_checker(root: Path) -> GapCheck:
    """A check that reads each file once; it says no when the file cannot be read or no
    longer matches the chunks at their edges (edited since indexing)."""
    files: dict[str, list[str] | None] = {}

    def lines_of(path: str) -> list[str] | None:
        if path not in files:
            try:
                text = (root / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                files[path] = None
            else:
                files[path] = text.split("\n")
        return files[path]

    def only_blank_between(before: Chunk, after: Chunk) -> bool:
        lines = lines_of(before.path)
        if lines is None or before.path != after.path or after.start_line > len(lines):
            return False
        edges = (
            lines[before.end_line - 1].rstrip() == before.text.split("\n")[-1].rstrip()
            and lines[after.start_line - 1].rstrip() == after.text.split("\n")[0].rstrip()
        )
        gap = lines[before.end_line : after.start_line - 1]
        return edges and all(not line.strip() for line in gap)

    return only_blank_between
