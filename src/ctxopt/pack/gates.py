"""CI gates over a stats report: each failure is a record, the words are the CLI's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxopt.pack.baseline import BaselineDiff
    from ctxopt.pack.savings import TaskSavings


class Gate(str, Enum):
    FAIL_UNDER = "fail-under"  # a task's savings in % below the limit
    MAX_REPO_TOKENS = "max-repo-tokens"  # the repository's tokens above the limit
    MAX_GROWTH = "max-growth"  # growth in % since the baseline above the limit


@dataclass(frozen=True)
class GateLimits:
    fail_under: float | None = None
    max_repo_tokens: int | None = None
    max_growth: float | None = None


@dataclass(frozen=True)
class GateFailure:
    gate: Gate
    subject: str  # the task's text, or "repository"
    actual: float
    limit: float
    is_task: bool = True

    @property
    def excess(self) -> float:
        """How far past the limit (always positive)."""
        return round(abs(self.actual - self.limit), 2)


def check_gates(
    limits: GateLimits,
    *,
    repo_tokens: int,
    tasks: Sequence[TaskSavings],
    diff: BaselineDiff | None,
) -> tuple[GateFailure, ...]:
    """Every limit the report breaks, in the order of the gates."""
    failures: list[GateFailure] = []
    if limits.fail_under is not None:
        failures.extend(
            GateFailure(Gate.FAIL_UNDER, t.task, t.saved_percent, limits.fail_under)
            for t in tasks
            if t.saved_percent < limits.fail_under
        )
    if limits.max_repo_tokens is not None and repo_tokens > limits.max_repo_tokens:
        failures.append(
            GateFailure(
                Gate.MAX_REPO_TOKENS, "repository", repo_tokens, limits.max_repo_tokens, False
            )
        )
    if limits.max_growth is not None and diff is not None:
        growths = [(diff.repository, False), *((t, True) for t in diff.tasks)]
        for growth, is_task in growths:
            percent = growth.percent
            if percent is not None and percent > limits.max_growth:
                failure = GateFailure(
                    Gate.MAX_GROWTH, growth.subject, percent, limits.max_growth, is_task
                )
                failures.append(failure)
    return tuple(failures)
