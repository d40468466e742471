"""Focus lines for every long chunk the ranking touches (pure but for reading files).

Window evidence (search.add_window_evidence) scores the line windows of the first pass's
top files only, and a chunk without a window cannot be shown as an excerpt: a long
function further down the ranking goes in whole or as its signature.  Here the files of
the long chunks among the top hits that have no focus yet get their windows scored on
their own (so the ranking's window scores stay as they are), and each such chunk gets the
lines of its best window as its focus.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from ctxopt.chunking import source_lines
from ctxopt.retrieve.windows import WINDOW_LINES, WindowLookup, rank_windows, window_file_limit
from ctxopt.types import Chunk, ScoredChunk

TOP_HITS = 80  # the ranked hits looked at
LONG_LINES = WINDOW_LINES * 3 // 2  # a chunk this long can be shown as an excerpt
MAX_FILES = 12  # files read for it, at most


def needs_focus(hit: ScoredChunk) -> bool:
    """A long chunk that shows its own lines (not a summary) and has no focus yet."""
    chunk = hit.chunk
    span = chunk.end_line - chunk.start_line + 1
    return hit.focus_lines is None and span >= LONG_LINES and shows_its_lines(chunk)


def localise_long_hits(
    hits: Sequence[ScoredChunk], task: str, root: Path
) -> tuple[ScoredChunk, ...]:
    """The hits, with focus lines added to the long ones among the top that had none."""
    wanted = [h for h in hits[:TOP_HITS] if needs_focus(h)]
    paths = list(dict.fromkeys(h.chunk.path for h in wanted))[:MAX_FILES]
    if not paths:
        return tuple(hits)
    read = {path: source_lines(root / path, window_file_limit(path)) for path in paths}
    windows = rank_windows(task, {p: lines for p, lines in read.items() if lines is not None})
    if not windows:
        return tuple(hits)
    focus: dict[str, tuple[int, int]] = {}
    lookup = WindowLookup(windows)
    for hit in wanted:
        chunk = hit.chunk
        window = lookup.best(chunk.path, chunk.start_line, chunk.end_line)
        if window is not None:
            focus[chunk.id] = (
                max(chunk.start_line, window.start_line),
                min(chunk.end_line, window.end_line),
            )
    return tuple(
        dataclasses.replace(h, focus_lines=focus[h.chunk.id]) if h.chunk.id in focus else h
        for h in hits
    )


def shows_its_lines(chunk: Chunk) -> bool:
    """False for summaries (a class shown as its member list) that span more than they show."""
    span = chunk.end_line - chunk.start_line + 1
    return chunk.text.count("\n") + 1 >= span // 2
