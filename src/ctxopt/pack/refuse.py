"""Exit 3: the least budget a refused pack names, and the two refusals (`BudgetError`).

The reckoned least (the task, the headers and the best hit as its signature or stub) is
where the search for the budget named starts, not the answer: the selection counts an
entry's file header and fences below what they render to, so at small budgets it can take a
cheaper hit first, which renders over the budget and is dropped in fitting, and the pack
holds no code.  Selection and fitting are pure and cheap (renderings are cached), so the
budgets from the least up are tried one by one, then in doubling strides; the first that
packs code is named.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import replace

from ctxopt.errors import BudgetError
from ctxopt.pack.fit import render_data
from ctxopt.pack.long_task import TASK_SHARE, shorten_task
from ctxopt.pack.packing import SMALL_BUDGET, Packing, holds_code, select_and_fit
from ctxopt.pack.prompt_tokens import count as count_tokens
from ctxopt.pack.render import RenderInput, render
from ctxopt.pack.select import FILE_HEADER, Render
from ctxopt.types import Choice, Fidelity, PickReason, ScoredChunk

LINEAR_TRIALS = 64  # budgets least, least + 1, ... tried one by one (the gap seen: up to 38)
STRIDED_TRIALS = 8  # then least + 64, + 128, ... (up to least + 8,192)


def budget_in_words(budget: int, model_budget: int, factor: float) -> str:
    """A budget as the user gave it: in the model's tokens, with the cl100k count it means."""
    if factor == 1.0 or budget == model_budget:
        return f"{budget:,} tokens"
    return f"{model_budget:,} tokens ({budget:,} counted with cl100k)"


def no_room(
    budget_words: str, fixed: int, works: int, small: bool, *, window: bool = False
) -> BudgetError:
    """The refusal of a budget that cannot hold even the task and headers; window: the
    budget is a model's window (less the reserve), so a larger window is a way out too (a
    budget given in tokens wins over any model's window)."""
    shortened = f" (from {SMALL_BUDGET:,} a long task is shortened)" if small else ""
    return BudgetError(
        lambda names: (
            f"the budget of {budget_words} cannot hold even the task and headers "
            f"({fixed:,} tokens); raise {names('budget')} to at least {works:,}{shortened}"
            + (f" or pick a {names('model')} with a larger window" if window else "")
        )
    )


def no_code(
    budget_words: str, fixed: int, least: int, factor: float, *, window: bool = False
) -> BudgetError:
    """The refusal of a budget that holds the task and headers but no entry of code (window:
    as for no_room)."""
    needed = math.ceil(least * factor)
    return BudgetError(
        lambda names: (
            f"the budget of {budget_words} holds the task and headers ({fixed:,} "
            f"tokens) but not one entry of code: that takes {least:,}; raise {names('budget')} "
            f"to at least {needed:,}"
            + (f" (or pick a {names('model')} with a larger window)" if window else "")
        )
    )


def least_with_code(packing: Packing, least: int, *, known_empty: int | None = None) -> int:
    """The first budget from the reckoned least up whose pack holds code; least when none of
    the budgets tried does."""
    found = smallest_budget_with_code(
        least,
        lambda budget: holds_code(select_and_fit(packing, budget)[2]),
        known_empty=known_empty,
    )
    return least if found is None else found


def smallest_budget_with_code(
    least: int, packs_code: Callable[[int], bool], *, known_empty: int | None = None
) -> int | None:
    """The first trial budget from least up whose pack holds code; None when none does.
    known_empty: a budget already packed without code (not packed again)."""
    return next((b for b in trial_budgets(least) if b != known_empty and packs_code(b)), None)


def trial_budgets(least: int) -> Iterator[int]:
    """least, least + 1, ... least + LINEAR_TRIALS - 1, then doubling strides above."""
    yield from range(least, least + LINEAR_TRIALS)
    for step in range(STRIDED_TRIALS):
        yield least + LINEAR_TRIALS * 2**step


def least_working(
    base: RenderInput, best: ScoredChunk | None, renderer: Render, fmt: str, least: int
) -> int:
    """The smallest budget that packs: least, or SMALL_BUDGET when the task shortened there
    (a long task, a diff) leaves room for code at it."""
    if least <= SMALL_BUDGET:
        return least
    short = shorten_task(base.task, int(TASK_SHARE * SMALL_BUDGET))
    if short is None:
        return least
    _, shortened = least_pack(replace(base, task=short.text), best, renderer, fmt)
    return SMALL_BUDGET if shortened <= SMALL_BUDGET else least


def least_pack(
    base: RenderInput, best: ScoredChunk | None, renderer: Render, fmt: str
) -> tuple[int, int]:
    """Tokens of the task and headers alone, and of the smallest pack with code in it (the
    same when there is no hit)."""
    fixed = count_tokens(render(base, fmt))
    return fixed, fixed if best is None else _least_budget(base, best, renderer, fmt, fixed)


def _least_budget(
    base: RenderInput, best: ScoredChunk, renderer: Render, fmt: str, fixed: int
) -> int:
    """Tokens of the smallest pack with code in it: the task, the headers and the best hit
    as a signature or a one-line stub.  The selection takes the first of those its reckoning
    (the entry's cost and a file header) fits, and that entry must fit as rendered too."""
    reckoned, rendered = [], []
    for fidelity in (Fidelity.SIGNATURE, Fidelity.STUB):  # the order the selection tries
        content, cost = renderer(best.chunk, fidelity)
        entry = Choice(best, fidelity, content, cost, PickReason.SCORE)
        reckoned.append(fixed + cost + FILE_HEADER)
        rendered.append(count_tokens(render(render_data(base, [entry], "relevance", ""), fmt)))
    for budget in sorted({max(pair) for pair in zip(reckoned, rendered, strict=True)}):
        first = next(i for i, need in enumerate(reckoned) if need <= budget)  # one fits
        if rendered[first] <= budget:
            return budget
    return max(*reckoned, *rendered)
