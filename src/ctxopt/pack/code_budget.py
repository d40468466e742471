"""The smallest budget whose pack holds code, confirmed by packing at it (exit 3 names it).

The reckoned least (the task, the headers and the best hit as its signature or stub) is
where the search starts, not the answer: the selection counts an entry's file header and
fences below what they render to, so at small budgets it can take a cheaper hit first, which
renders over the budget and is dropped in fitting, and the pack holds no code.  Selection and
fitting are pure and cheap (renderings are cached), so the budgets from the least up are
tried one by one, then in doubling strides; the first that packs code is named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

LINEAR_TRIALS = 64  # budgets least, least + 1, ... tried one by one (the gap seen: up to 38)
STRIDED_TRIALS = 8  # then least + 64, + 128, ... (up to least + 8,192)


def smallest_budget_with_code(
    least: int, holds_code: Callable[[int], bool], *, known_empty: int | None = None
) -> int | None:
    """The first trial budget from least up whose pack holds code; None when none does.
    known_empty: a budget already packed without code (not packed again)."""
    return next((b for b in trial_budgets(least) if b != known_empty and holds_code(b)), None)


def trial_budgets(least: int) -> Iterator[int]:
    """least, least + 1, ... least + LINEAR_TRIALS - 1, then doubling strides above."""
    yield from range(least, least + LINEAR_TRIALS)
    for step in range(STRIDED_TRIALS):
        yield least + LINEAR_TRIALS * 2**step
