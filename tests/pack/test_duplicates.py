"""Near-duplicates found through prefix lines are those a comparison of every pair finds."""

from __future__ import annotations

import math
import random

from ctxopt.pack.duplicates import DUPLICATE_SIMILARITY, near_duplicates
from ctxopt.types import Chunk, ChunkKind, ScoredChunk


def scored(n: int, text: str, content_hash: str | None = None) -> ScoredChunk:
    chunk = Chunk(
        id=f"c{n}", path=f"f{n % 7}.py", language="python", kind=ChunkKind.FUNCTION,
        name=f"f{n}", qualified_name=f"f{n}", signature="", docstring="", start_line=1,
        end_line=text.count("\n") + 1, text=text, tokens=10,
        content_hash=content_hash or f"h{n}",
    )  # fmt: skip
    return ScoredChunk(chunk, 1.0 - n / 1000, {}, (), {})


def every_pair(hits: list[ScoredChunk]) -> dict[str, str]:
    """The definition: each chunk against every kept one, smallest line set first (then the
    order kept), the first at least 0.9 similar by line-set Jaccard."""
    kept: list[tuple[ScoredChunk, frozenset[str]]] = []
    by_hash: dict[str, str] = {}
    out: dict[str, str] = {}
    for hit in hits:
        if hit.chunk.content_hash in by_hash:
            out[hit.chunk.id] = by_hash[hit.chunk.content_hash]
            continue
        lines = frozenset(x.strip() for x in hit.chunk.text.splitlines() if x.strip())
        order = sorted(range(len(kept)), key=lambda i: (len(kept[i][1]), i))
        for i in order:
            other = kept[i][1]
            size_ok = math.ceil(len(lines) * 0.9) <= len(other) <= int(len(lines) / 0.9)
            union = len(lines | other)
            if size_ok and union and len(lines & other) / union >= DUPLICATE_SIMILARITY:
                out[hit.chunk.id] = kept[i][0].chunk.id
                break
        else:
            by_hash[hit.chunk.content_hash] = hit.chunk.id
            kept.append((hit, lines))
    return out


def test_prefix_candidates_find_what_every_pair_finds() -> None:
    rnd = random.Random(7)
    found = 0
    for round_ in range(60):
        bases = [[f"line {b}.{i} = {rnd.random():.3f}" for i in range(rnd.randint(1, 40))]
                 for b in range(5)]  # fmt: skip
        hits = []
        for n in range(40):
            lines = list(rnd.choice(bases))
            for _ in range(rnd.choice([0, 0, 1, 2, 4])):  # edits: change, drop or add a line
                at = rnd.randrange(len(lines) + 1)
                action = rnd.choice(["change", "drop", "add"])
                if action == "add" or not lines or at == len(lines):
                    lines.insert(at, f"new {rnd.random():.4f}")
                elif action == "drop":
                    lines.pop(at)
                else:
                    lines[at] = f"other {rnd.random():.4f}"
            text = "\n".join(lines) + rnd.choice(["", "\n", "\n   \n"])
            hits.append(scored(round_ * 100 + n, text, rnd.choice([None, None, "same"])))
        expected = every_pair(hits)
        assert near_duplicates(hits) == expected
        found += len(expected)
    assert found > 500  # the cases hold many near-duplicates, not only exact ones
