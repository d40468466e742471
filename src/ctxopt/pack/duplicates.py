"""Near-duplicate chunks: copies and near-copies of a chunk kept before them (pure)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence

from ctxopt.types import Choice, Dropped, DropReason, ScoredChunk

DUPLICATE_SIMILARITY = 0.9


@functools.lru_cache(maxsize=8192)  # the same chunks come back call after call
def _shingles(text: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """A chunk's set of stripped non-blank lines, and its prefix: the first lines of the set
    in one fixed order (by hash), as many as a set it is 0.9-similar to must share one of
    (one more, against rounding).  Two sets with no prefix line in common are not."""
    lines = frozenset(line.strip() for line in text.splitlines() if line.strip())
    length = min(len(lines), len(lines) - math.ceil(len(lines) * DUPLICATE_SIMILARITY) + 2)
    return lines, tuple(sorted(lines, key=lambda line: (hash(line), line))[:length])


def near_duplicates(hits: Sequence[ScoredChunk]) -> dict[str, str]:
    """id -> id of the chunk before it in `hits` that it duplicates (line-set Jaccard >= 0.9):
    hits come in the order of preference, best score first (or a file shown whole first).

    Only chunks of similar size can reach 0.9, and only chunks sharing a line of their
    prefixes (see `_shingles`), so each chunk is compared with the kept chunks that share
    one and whose line-set size is within that ratio; the first of those in (size, order
    kept) that is similar enough is the one it duplicates.
    """
    by_hash: dict[str, str] = {}
    kept: list[tuple[ScoredChunk, frozenset[str]]] = []
    holding: dict[str, list[int]] = {}  # a prefix line -> the kept chunks it starts
    duplicate_of: dict[str, str] = {}
    for hit in hits:
        if hit.chunk.content_hash in by_hash:
            duplicate_of[hit.chunk.id] = by_hash[hit.chunk.content_hash]
            continue
        lines, prefix = _shingles(hit.chunk.text)
        low = math.ceil(len(lines) * DUPLICATE_SIMILARITY)
        high = int(len(lines) / DUPLICATE_SIMILARITY)
        near = {i for line in prefix for i in holding.get(line, ())}
        match = next(
            (
                kept[i][0]
                for _, i in sorted((len(kept[i][1]), i) for i in near)
                if low <= len(kept[i][1]) <= high
                and _jaccard(lines, kept[i][1]) >= DUPLICATE_SIMILARITY
            ),
            None,
        )
        if match is not None:
            duplicate_of[hit.chunk.id] = match.chunk.id
            continue
        by_hash[hit.chunk.content_hash] = hit.chunk.id
        for line in prefix:
            holding.setdefault(line, []).append(len(kept))
        kept.append((hit, lines))
    return duplicate_of


COPY_GROUP_FILES = 3  # a text in more files than this is boilerplate or copied out, not in
COPY_TEXTS = 8  # a file holding fewer copied texts than this shares code, it is not a copy
COPY_SOURCES = 2  # ... and it is a copy of others when it covers this many files
COVERED = 0.75  # a file is covered by another that holds this share of its copied texts


def copy_holders(hits: Sequence[ScoredChunk], duplicate_of: Mapping[str, str]) -> frozenset[str]:
    """Files that are copies of others (a generated single header, an amalgamation, a vendored
    old version): each holds COPY_TEXTS or more copied texts and covers COPY_SOURCES or more
    files, holding most of the texts those files share with any other.  Their copy of a text
    is the one to drop.  Only texts in at most COPY_GROUP_FILES files count, so a licence
    header in every file, or a snippet copied out into many examples, makes no file a copy;
    and files that share a few functions (platform variants of one module) cover nothing."""
    path = {h.chunk.id: h.chunk.path for h in hits}
    groups: dict[str, set[str]] = {}
    for copy, kept in duplicate_of.items():
        groups.setdefault(kept, {path[kept]}).add(path[copy])
    texts: dict[str, int] = {}
    shared: dict[tuple[str, str], int] = {}
    for files in groups.values():
        if 1 < len(files) <= COPY_GROUP_FILES:
            for one in files:
                texts[one] = texts.get(one, 0) + 1
                for other in files - {one}:
                    shared[one, other] = shared.get((one, other), 0) + 1
    covers: dict[str, int] = {}
    for (holder, other), count in shared.items():
        if count >= COVERED * texts[other]:
            covers[holder] = covers.get(holder, 0) + 1
    return frozenset(f for f, n in covers.items() if n >= COPY_SOURCES and texts[f] >= COPY_TEXTS)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) / len(large) < DUPLICATE_SIMILARITY:
        return 0.0
    return len(small & large) / len(small | large)


def copies_accounted(chosen: Iterable[Choice], dropped: Iterable[Dropped]) -> tuple[Dropped, ...]:
    """The drops with each near-duplicate whose twin is not chosen (turned away for room, made
    way for a better chunk, fitted out) dropped as COPY_LEFT_OUT: no copy of that text is
    packed, so `--explain` does not say one was kept instead."""
    kept = {c.hit.chunk.id for c in chosen}
    return tuple(
        Dropped(d.hit, DropReason.COPY_LEFT_OUT, twin=d.twin)
        if d.reason is DropReason.NEAR_DUPLICATE and d.twin not in kept
        else d
        for d in dropped
    )
