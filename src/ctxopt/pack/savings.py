"""Token and cost savings of packing tasks, against sending the whole repository.

The report packs each task through the application layer (`app.stats_report`) and prices
the result here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ctxopt.pack import models as model_table
from ctxopt.pack.tasks_file import SavingsTask
from ctxopt.types import ModelInfo, PackResult


@dataclass(frozen=True)
class TaskSavings:
    task: str
    budget: int  # in the pricing model's tokens, as `pack --budget`
    model: str  # the model the costs are priced at
    repo_tokens: int  # cl100k tokens of every indexed file
    packed_tokens: int  # cl100k tokens of the rendered pack
    saved_percent: float  # 100 * (1 - packed / repo); negative when the pack is larger
    repo_cost: float  # USD to send the whole repository as input
    pack_cost: float  # USD to send the pack
    confidence: float  # the pack's confidence (0..1)

    @property
    def cost_saved(self) -> float:
        return round(self.repo_cost - self.pack_cost, 6)


@dataclass(frozen=True)
class SavingsTotals:
    tasks: int
    repo_tokens: int  # summed over tasks (the repository once per task)
    packed_tokens: int
    saved_percent: float
    repo_cost: float
    pack_cost: float
    cost_saved: float
    lowest_saved_percent: float


def percent_saved(repo_tokens: int, packed_tokens: int) -> float:
    return round(100 * (1 - packed_tokens / repo_tokens), 2) if repo_tokens else 0.0


def savings_of(task: SavingsTask, budget: int, result: PackResult, price: ModelInfo) -> TaskSavings:
    """A packed task's tokens and costs against sending the whole repository, priced at price."""
    repo_tokens = result.savings.repo_tokens
    return TaskSavings(
        task=task.task,
        budget=budget,
        model=price.name,
        repo_tokens=repo_tokens,
        packed_tokens=result.tokens,
        saved_percent=percent_saved(repo_tokens, result.tokens),
        repo_cost=round(model_table.estimate_cost(repo_tokens, price), 6),
        pack_cost=round(model_table.estimate_cost(result.tokens, price), 6),
        confidence=result.confidence,
    )


def savings_totals(rows: Sequence[TaskSavings]) -> SavingsTotals:
    repo = sum(r.repo_tokens for r in rows)
    packed = sum(r.packed_tokens for r in rows)
    repo_cost = round(sum(r.repo_cost for r in rows), 6)
    pack_cost = round(sum(r.pack_cost for r in rows), 6)
    return SavingsTotals(
        tasks=len(rows),
        repo_tokens=repo,
        packed_tokens=packed,
        saved_percent=percent_saved(repo, packed),
        repo_cost=repo_cost,
        pack_cost=pack_cost,
        cost_saved=round(repo_cost - pack_cost, 6),
        lowest_saved_percent=min((r.saved_percent for r in rows), default=0.0),
    )
