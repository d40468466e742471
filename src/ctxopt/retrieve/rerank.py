"""Reranking a ranking's best hits with a cross-encoder (opt-in: `rerank` in the settings).

The cross-encoder reads the task and each of the best hits together (its path, then its
text), which the full-text, vector and name evidence of the first ranking never do. Its
verdict is added to the hit's score, not put in its place: each of the `RERANK_TOP` best hits
gains `RERANK_WEIGHT` times how much more likely a match the model finds it than the least
likely of them, so the hits it rates alike keep their order and the rest of the ranking stays
below the best of them as before. The weight and the pool were chosen on the development
split (README, *A cross-encoder reranks the best hits*).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from ctxopt.types import Chunk, ScoredChunk

RERANK_TOP = 20
RERANK_WEIGHT = 0.2
LOGIT_SCALE = 2.0  # the model's logits span about -11..+9: halved, they spread over 0..1
PASSAGE_CHARS = 3000  # more than the model reads (256 tokens); spares tokenising the rest

PairScorer = Callable[[str, Sequence[str]], Sequence[float]]


def passage(chunk: Chunk) -> str:
    """What the cross-encoder reads of a chunk: its path, then its text."""
    return f"{chunk.path}\n{chunk.text[:PASSAGE_CHARS]}"


def match_probability(logit: float) -> float:
    return 1.0 / (1.0 + math.exp(-logit / LOGIT_SCALE))


def rerank(
    task: str,
    ranked: Sequence[ScoredChunk],
    score_pairs: PairScorer,
    *,
    top: int = RERANK_TOP,
    weight: float = RERANK_WEIGHT,
) -> list[ScoredChunk]:
    """The ranking with its `top` best hits lifted by the cross-encoder's verdict, in score
    order; each lifted hit records the lift as its `rerank` factor and the model's match
    probability as its `rerank` feature."""
    head = list(ranked[:top])
    if len(head) < 2:
        return list(ranked)
    logits = score_pairs(task, [passage(hit.chunk) for hit in head])
    probabilities = [match_probability(x) for x in logits]
    floor = min(probabilities)
    lifted = [
        _lifted(hit, weight * (p - floor), p) for hit, p in zip(head, probabilities, strict=True)
    ]
    out = lifted + list(ranked[top:])
    out.sort(key=lambda s: (-s.score, s.chunk.path, s.chunk.start_line))
    return out


def _lifted(hit: ScoredChunk, lift: float, probability: float) -> ScoredChunk:
    return replace(
        hit,
        score=round(hit.score + lift, 5),
        factors={**hit.factors, "rerank": round(lift, 5)},
        features={**hit.features, "rerank": round(probability, 5)},
    )
