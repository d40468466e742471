"""The indexed chunks a change touches, as hits a pack must hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ctxopt.index.store import IndexReader
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.types import ScoredChunk


def touched_chunks(
    reader: IndexReader, ranges: Mapping[str, Sequence[tuple[int, int]]]
) -> tuple[ScoredChunk, ...]:
    """Chunks overlapping any changed line range, sorted by path and start line."""
    hits = [
        ScoredChunk(chunk, 1.0, {"diff": 1.0}, ("touched by the change",), {}, mandatory=True)
        for chunk in CandidateSource(reader).in_files(ranges)
        if any(a <= chunk.end_line and chunk.start_line <= b for a, b in ranges[chunk.path])
    ]
    hits.sort(key=lambda h: (h.chunk.path, h.chunk.start_line))
    return tuple(hits)
