"""Before spending: how many calls a run makes, how many tokens it sends, what that costs."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ctxopt.analyze.layout import Layout
from ctxopt.analyze.prompts import overhead_tokens
from ctxopt.pack.models import estimate_cost
from ctxopt.types import ModelInfo

FINAL_OVERHEAD_TOKENS = 250


@dataclass(frozen=True)
class Spend:
    calls: int  # planned calls (a retry adds one)
    tokens_to_send: int  # cl100k: document text exactly, memories at the note's estimate
    cost: float | None  # USD of the input, with --model


def memory_tokens(memory_chars: int) -> int:
    return math.ceil(memory_chars / 3.5)


def planned_spend(
    layout: Layout, memory_chars: int, model: ModelInfo | None = None, limit: int | None = None
) -> Spend:
    """Each window: one analysis call and, but for the last, one compaction; then one final
    (within limit tokens, when one is given).

    Document text is counted exactly; each memory (and a window's findings) at the
    note's estimate of --memory-chars."""
    count = len(layout.windows)
    memory = min(memory_tokens(memory_chars), layout.tokens)
    window_overhead, compact_overhead = overhead_tokens()
    text = sum(w.tokens for w in layout.windows)
    analysis = text + (count - 1) * memory + count * window_overhead
    compaction = (count - 1) * (2 * memory + compact_overhead)  # memory + findings
    final = count * memory + layout.windows[-1].tokens + FINAL_OVERHEAD_TOKENS
    final = min(final, limit) if limit is not None else final
    calls = count + (count - 1) + 1
    sent = analysis + compaction + final
    return Spend(calls, sent, estimate_cost(sent, model) if model else None)
