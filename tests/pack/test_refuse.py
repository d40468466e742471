"""The budgets exit 3 tries from the reckoned least up, and the first that packs code."""

from __future__ import annotations

from ctxopt.pack.refuse import LINEAR_TRIALS, smallest_budget_with_code, trial_budgets


def test_budgets_are_tried_one_by_one_then_in_doubling_strides() -> None:
    tried = list(trial_budgets(200))
    assert tried[:LINEAR_TRIALS] == list(range(200, 200 + LINEAR_TRIALS))
    assert tried[LINEAR_TRIALS:][:3] == [200 + step * LINEAR_TRIALS for step in (1, 2, 4)]


def test_the_first_budget_that_packs_code_is_named_and_a_known_empty_one_not_packed() -> None:
    packed: list[int] = []

    def holds_code(budget: int) -> bool:
        packed.append(budget)
        return budget >= 215

    assert smallest_budget_with_code(205, holds_code, known_empty=207) == 215
    assert 207 not in packed and packed == [b for b in range(205, 216) if b != 207]
    assert smallest_budget_with_code(205, lambda budget: False) is None
