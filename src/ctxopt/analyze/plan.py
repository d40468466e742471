"""Window maths, pure: where windows start and end in a document's tokens.

A document is seen as T tokens whose character starts are known.  Windows hold at
most ``window_tokens`` tokens of document text; window i+1 begins inside window i
so that about ``overlap`` of a window is carried over (never more than configured);
the new text of the windows partitions the document in order.  Cuts prefer a section
start, then a paragraph, then a sentence, within a slack of the ideal position.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

END_SLACK = 0.1  # a window may end this share of a window early to meet a boundary
OVERLAP_SLACK = 0.25  # the overlap may shrink by this share of itself to meet a boundary
MIN_WINDOW_TOKENS = 50


class Cut(IntEnum):
    """How good a place to cut is (higher is better)."""

    TOKEN = 0
    SENTENCE = 1
    PARAGRAPH = 2
    SECTION = 3


@dataclass(frozen=True)
class Limits:
    window_tokens: int
    overlap: float = 0.2
    single_pass_tokens: int = 100_000

    @property
    def overlap_tokens(self) -> int:
        return int(self.window_tokens * self.overlap)


@dataclass(frozen=True)
class Span:
    """One window in token indices: text [start, end), of which [start, new_start) is overlap."""

    start: int
    new_start: int
    end: int

    @property
    def tokens(self) -> int:
        return self.end - self.start

    @property
    def overlap_tokens(self) -> int:
        return self.new_start - self.start


def check_limits(limits: Limits) -> None:
    if limits.window_tokens < MIN_WINDOW_TOKENS:
        raise ValueError(f"a window needs at least {MIN_WINDOW_TOKENS} tokens")
    if not 0 <= limits.overlap <= 0.5:
        raise ValueError("the overlap is a share of a window between 0 and 0.5")


def plan_spans(total: int, cuts: np.ndarray, limits: Limits) -> list[Span]:
    """Windows over tokens [0, total); cuts[i] is the Cut quality of cutting before token i."""
    check_limits(limits)
    width = limits.window_tokens
    if total <= min(width, limits.single_pass_tokens):
        return [Span(0, 0, total)]
    overlap = limits.overlap_tokens
    end_slack = int(width * END_SLACK)
    overlap_slack = int(overlap * OVERLAP_SLACK)
    spans: list[Span] = []
    start = new_start = 0
    while True:
        if total - start <= width:
            spans.append(Span(start, new_start, total))
            return spans
        ideal = start + width
        end = _best(cuts, max(new_start + 1, ideal - end_slack), ideal, latest=True)
        spans.append(Span(start, new_start, end))
        wanted = end - overlap
        start = _best(cuts, wanted, min(wanted + overlap_slack, end), latest=False)
        new_start = end


def _best(cuts: np.ndarray, low: int, high: int, *, latest: bool) -> int:
    """The best cut in [low, high]: highest quality, then latest (or earliest)."""
    if high <= low:
        return high
    segment = cuts[low : high + 1]
    top = np.flatnonzero(segment == segment.max())
    return low + int(top[-1] if latest else top[0])
