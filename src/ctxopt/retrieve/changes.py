"""The indexed chunks a change touches, as hits a pack must hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ctxopt.index.store import IndexReader
from ctxopt.languages import Family, by_name
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.retrieve.secondary import Secondary, secondary_class
from ctxopt.types import Chunk, ScoredChunk


def touched_chunks(
    reader: IndexReader, ranges: Mapping[str, Sequence[tuple[int, int]]]
) -> tuple[ScoredChunk, ...]:
    """Chunks overlapping any changed line range: code first, then tests, other files, docs
    and changelogs, each by path and start line."""
    hits = [
        ScoredChunk(chunk, 1.0, {"diff": 1.0}, ("touched by the change",), {}, mandatory=True)
        for chunk in CandidateSource(reader).in_files(ranges)
        if any(a <= chunk.end_line and chunk.start_line <= b for a, b in ranges[chunk.path])
    ]
    hits.sort(key=lambda h: (_role_rank(h.chunk), h.chunk.path, h.chunk.start_line))
    return tuple(hits)


# the order the touched chunks go in, so that a change too big for the budget shows its code
# first: code, tests, configuration and other files (tooling among them), docs, then
# changelogs and release notes
_RANKS = {Secondary.TEST: 1, Secondary.TOOLING: 2, Secondary.DOCS: 3, Secondary.HISTORY: 4}


def _role_rank(chunk: Chunk) -> int:
    role = secondary_class(chunk)
    if role is not None:
        return _RANKS[role]
    record = by_name(chunk.language)
    return 0 if record is not None and record.family is Family.CODE else 2
