"""The files a task is about: exempt from the default cap per file, and packed whole."""

from __future__ import annotations

from collections.abc import Sequence

from ctxopt.index.store import IndexReader
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.types import ScoredChunk

FOCUS_FILES = 3  # at most this many files are exempt from the per-file cap ...
FOCUS_SHARE = 0.8  # ... when their best chunk scores this close to the best hit


def files_named(hits: Sequence[ScoredChunk]) -> frozenset[str]:
    """The files the task names (by path)."""
    return frozenset(h.chunk.path for h in hits if h.features.get("proximity", 0) >= 1)


def focus_files(hits: Sequence[ScoredChunk]) -> frozenset[str]:
    """Files the default per-file cap does not apply to: those the task names, and the few
    files whose best chunk scores close to the best hit (the task is clearly about them)."""
    named = set(files_named(hits))
    if not hits:
        return frozenset(named)
    best: dict[str, float] = {}
    for hit in hits:
        best.setdefault(hit.chunk.path, hit.score)
    top = sorted(best, key=lambda p: -best[p])[:FOCUS_FILES]
    named.update(p for p in top if best[p] >= FOCUS_SHARE * hits[0].score)
    return frozenset(named)


def rest_of_files(
    reader: IndexReader,
    paths: frozenset[str],
    hits: Sequence[ScoredChunk],
    prefilter: str | None = None,
) -> list[ScoredChunk]:
    """The chunks of focus files that retrieval did not return, scored below their file;
    prefilter: the --lang and --kind filters' clause (prefilter_clause), which they pass."""
    if not paths:
        return []
    seen = {h.chunk.id for h in hits}
    floor = {p: min(h.score for h in hits if h.chunk.path == p) for p in paths}
    return [
        ScoredChunk(
            chunk, round(floor[chunk.path] * 0.5, 5), {}, ("in a file the task is about",), {}
        )
        for chunk in CandidateSource(reader, prefilter).in_files(paths)
        if chunk.id not in seen
    ]
