"""Fitting ranking weights to examples (numpy only, pure).

The objective mimics a pack: candidates are ordered by weighted score per token (damped as
the packer does), taken until a token budget is spent, and the share of the commit's units
reached (the chunks holding lines it added, or files; see tune.examples) is averaged over a
few budgets and all examples.  Coordinate ascent
moves one weight at a time over a small set of values and keeps a move only when it raises
the objective on the training examples by more than MIN_GAIN.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ctxopt.pack.select import DENSITY_EXPONENT
from ctxopt.tune.examples import FEATURES, Example

BUDGETS = (4000.0, 8000.0, 16000.0)
ROUNDS = 3
MIN_GAIN = 0.002  # a move must reach this much more recall to count (less is noise)
GRID = (0.0, 0.03, 0.1, 0.2, 0.3, 0.5, 0.8)
# A weight above zero switches work on at query time (window: line windows are read and
# scored; semantic: the task is embedded); features were computed with it on, so the fit
# may lower it but not switch it off.
GATHERING = tuple(FEATURES.index(name) for name in ("window", "semantic"))
FLOOR = 0.03

Vector = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Prepared:
    """An example with what the objective needs precomputed."""

    features: Vector
    scale: Vector  # secondary factor / damped token cost
    tokens: Vector
    gold_rows: npt.NDArray[np.int64]  # candidate rows reaching a unit, grouped by unit
    starts: npt.NDArray[np.int64]  # first entry of each unit's group in gold_rows
    gold: int


def prepare(example: Example) -> Prepared:
    cost = np.maximum(example.tokens, 40.0) ** DENSITY_EXPONENT
    order = np.argsort(example.gold_of, kind="stable")
    order = order[example.gold_of[order] >= 0]
    groups = example.gold_of[order]
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]]) if len(groups) else groups
    return Prepared(
        example.features,
        example.factor / cost,
        example.tokens,
        order.astype(np.int64),
        starts.astype(np.int64),
        example.gold,
    )


def recall(weights: Vector, item: Prepared) -> float:
    """Mean share of the units reached within each budget."""
    if item.gold_rows.size == 0:
        return 0.0
    priority = (item.features @ weights) * item.scale
    order = np.argsort(-priority, kind="stable")
    spent = np.empty_like(item.tokens)
    spent[order] = np.cumsum(item.tokens[order])
    first = np.minimum.reduceat(spent[item.gold_rows], item.starts)
    reached = sum(int(np.count_nonzero(first <= budget)) for budget in BUDGETS)
    return reached / (len(BUDGETS) * item.gold)


def objective(weights: Vector, items: Sequence[Prepared]) -> float:
    return float(np.mean([recall(weights, item) for item in items])) if items else 0.0


def as_vector(weights: dict[str, float]) -> Vector:
    return np.asarray([weights.get(name, 0.0) for name in FEATURES], dtype=np.float64)


def as_weights(vector: Vector) -> dict[str, float]:
    return {name: round(float(v), 4) for name, v in zip(FEATURES, vector, strict=True)}


def varying(items: Sequence[Prepared]) -> list[int]:
    """Features that take more than one value somewhere: only those can change a ranking."""
    if not items:
        return []
    stacked = np.vstack([item.features for item in items if item.features.size])
    if stacked.size == 0:
        return []
    return [j for j in range(stacked.shape[1]) if np.ptp(stacked[:, j]) > 0]


def coordinate_ascent(
    start: Vector,
    items: Sequence[Prepared],
    step: Callable[[int], None] | None = None,
) -> Vector:
    """Weights that rank the items better than start, moving one weight at a time; the
    total is kept (only the weights' ratios order candidates, but pack thresholds read
    the scores)."""
    weights = start.copy()
    best = objective(weights, items)
    free = varying(items)
    for round_number in range(ROUNDS):
        moved = False
        for j in free:
            current = weights[j]
            values = {*GRID, current * 0.5, current * 1.5, current * 2.0}
            if j in GATHERING and start[j] > 0:
                values = {v for v in values if v >= FLOOR}
            for value in sorted(values - {current}):
                trial = weights.copy()
                trial[j] = value
                score = objective(trial, items)
                if score > best + MIN_GAIN:
                    best, weights, moved = score, trial, True
        if step is not None:
            step(round_number + 1)
        if not moved:
            break
    total = weights.sum()
    return weights * (start.sum() / total) if total > 0 else start.copy()
