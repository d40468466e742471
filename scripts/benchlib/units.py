"""The changed functions of a case: the chunks ctxopt's chunker makes that hold changed lines."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from benchlib.metrics import ChangedUnit
from benchlib.mine import GoldFile


def _chunk_ranges(root: Path, path: str) -> list[tuple[int, int]]:
    """(start, end) of the file's chunks as the index makes them (class summaries left out)."""
    from ctxopt.chunking import chunk_file, read_source
    from ctxopt.languages.registry import detect_language

    try:
        text, _ = read_source(str(root / path))
    except OSError:
        return []
    chunked = chunk_file(path, text, detect_language(path))
    return [(c.start_line, c.end_line) for c in chunked.chunks if not c.summary]


def units_of(
    path: str, lines: Sequence[int], ranges: Sequence[tuple[int, int]]
) -> list[ChangedUnit]:
    """Group lines by the smallest range holding each; a line in none is a unit of its own."""
    grouped: dict[tuple[int, int], list[int]] = defaultdict(list)
    for line in lines:
        holding = [r for r in ranges if r[0] <= line <= r[1]]
        key = min(holding, key=lambda r: (r[1] - r[0], r[0])) if holding else (line, line)
        grouped[key].append(line)
    return [
        ChangedUnit(path, start, end, tuple(sorted(found)))
        for (start, end), found in sorted(grouped.items())
    ]


def changed_units(root: Path, gold: Sequence[GoldFile]) -> tuple[ChangedUnit, ...]:
    """The changed units of every gold file, read from the work tree checked out at the parent."""
    out: list[ChangedUnit] = []
    for g in gold:
        out.extend(units_of(g.path, g.lines, _chunk_ranges(root, g.path)))
    return tuple(out)
