"""Near-duplicate chunks: copies and near-copies of a higher-scored chunk (pure)."""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Sequence

from ctxopt.types import ScoredChunk

DUPLICATE_SIMILARITY = 0.9


@functools.lru_cache(maxsize=8192)  # the same chunks come back call after call
def _shingles(text: str) -> frozenset[str]:
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def near_duplicates(hits: Sequence[ScoredChunk]) -> dict[str, str]:
    """id -> id of the higher-scored chunk it duplicates (line-set Jaccard >= 0.9).

    Only chunks of similar size can reach 0.9, so each chunk is compared with the kept
    chunks whose line-set size is within that ratio (found by bisection).
    """
    by_hash: dict[str, str] = {}
    sizes: list[tuple[int, int]] = []  # (line-set size, index in kept), sorted
    kept: list[tuple[ScoredChunk, frozenset[str]]] = []
    duplicate_of: dict[str, str] = {}
    for hit in hits:
        if hit.chunk.content_hash in by_hash:
            duplicate_of[hit.chunk.id] = by_hash[hit.chunk.content_hash]
            continue
        lines = _shingles(hit.chunk.text)
        low = bisect.bisect_left(sizes, (math.ceil(len(lines) * DUPLICATE_SIMILARITY), -1))
        high = bisect.bisect_right(sizes, (int(len(lines) / DUPLICATE_SIMILARITY), len(kept)))
        match = next(
            (
                kept[i][0]
                for _, i in sizes[low:high]
                if _jaccard(lines, kept[i][1]) >= DUPLICATE_SIMILARITY
            ),
            None,
        )
        if match is not None:
            duplicate_of[hit.chunk.id] = match.chunk.id
            continue
        by_hash[hit.chunk.content_hash] = hit.chunk.id
        bisect.insort(sizes, (len(lines), len(kept)))
        kept.append((hit, lines))
    return duplicate_of


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) / len(large) < DUPLICATE_SIMILARITY:
        return 0.0
    return len(small & large) / len(small | large)
