"""A fast model of ctxopt's pack over stored candidates, for screening ranking weights.

A case's candidates are ranked once (index at the commit's parent, default weights) and kept
with their factor vectors, tokens and the changed lines each holds.  The model then re-orders
them under other weights as the selection does, in three of its steps: the best hits within
LEAD_SHARE of the top score go in whole first, the rest by score per damped token cost with
each further chunk of a file counting DIVERSITY_DECAY less, and every new file pays a header.
It leaves out excerpts, signatures, the per-file cap and the named-chunk rules, so it is a
screen: a setting it favours still has to win in bench_retrieval.py's real packs.  On the
development split (600 cases) it gives changed lines within 0.01 of the real packs'.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

# The selection's own constants, so the model follows them when they change.
from ctxopt.pack.select import (
    DENSITY_EXPONENT,
    DIVERSITY_DECAY,
    FILE_HEADER,
    LEAD_COUNT,
    LEAD_MAX_SHARE,
    LEAD_SHARE,
    LEAD_TOKENS,
)

__all__ = ["FILE_HEADER", "Candidate", "StoredCase", "mean_shares", "pack_shares"]


@dataclass(frozen=True)
class Candidate:
    path: str
    tokens: int
    factors: tuple[float, ...]  # in the order of the stored feature names
    penalty: float  # the outline and secondary factors the score was multiplied by
    changed: int  # changed lines it shows (0 for an outline, which shows no body)


@dataclass(frozen=True)
class StoredCase:
    repo: str
    sha: str
    candidates: tuple[Candidate, ...]
    changed_lines: int
    changed_files: frozenset[str]


def _score(candidate: Candidate, weights: Sequence[float]) -> float:
    return sum(w * f for w, f in zip(weights, candidate.factors, strict=True)) * candidate.penalty


def pack_shares(case: StoredCase, weights: Sequence[float], budget: int) -> tuple[float, float]:
    """(share of the changed lines, share of the changed files) the modelled pack shows."""
    if not case.candidates or case.changed_lines == 0:
        return 0.0, 0.0
    scores = [_score(c, weights) for c in case.candidates]
    best = max(scores)
    spent = 0
    per_file: dict[str, int] = {}
    chosen: set[int] = set()

    def take(i: int) -> None:
        nonlocal spent
        candidate = case.candidates[i]
        cost = candidate.tokens + (0 if candidate.path in per_file else FILE_HEADER)
        if spent + cost <= budget:
            spent += cost
            per_file[candidate.path] = per_file.get(candidate.path, 0) + 1
            chosen.add(i)

    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    for i in order[: max(LEAD_COUNT, budget // LEAD_TOKENS)]:
        if scores[i] >= LEAD_SHARE * best and case.candidates[i].tokens <= LEAD_MAX_SHARE * budget:
            take(i)
    costs = [max(c.tokens, 40) ** DENSITY_EXPONENT for c in case.candidates]
    density = [s / cost for s, cost in zip(scores, costs, strict=True)]
    heap = [(-density[i], i, 0) for i in range(len(scores)) if i not in chosen]
    heapq.heapify(heap)
    while heap and spent < budget - 40:
        _, i, seen = heapq.heappop(heap)
        now = per_file.get(case.candidates[i].path, 0)
        if now != seen:  # its file got chunks since it was queued: it counts less now
            heapq.heappush(heap, (-density[i] * DIVERSITY_DECAY**now, i, now))
            continue
        take(i)
    lines = sum(case.candidates[i].changed for i in chosen) / case.changed_lines
    files = {case.candidates[i].path for i in chosen} & case.changed_files
    return lines, len(files) / len(case.changed_files)


def mean_shares(
    cases: Sequence[StoredCase], weights: Sequence[float], budgets: Sequence[int]
) -> tuple[list[float], list[float]]:
    """Mean changed-line and changed-file shares per budget."""
    lines = [0.0] * len(budgets)
    files = [0.0] * len(budgets)
    for case in cases:
        for j, budget in enumerate(budgets):
            line_share, file_share = pack_shares(case, weights, budget)
            lines[j] += line_share
            files[j] += file_share
    n = max(1, len(cases))
    return [v / n for v in lines], [v / n for v in files]
