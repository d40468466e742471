"""Ranked spans and filling a token budget with them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from benchlib.bm25 import bm25_scores, tokenize
from benchlib.corpus import Segment


@dataclass(frozen=True)
class Span:
    """A selected or ranked piece of a file."""

    file: str  # repo-relative POSIX path
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    tokens: int
    score: float = 0.0


@dataclass(frozen=True)
class Selection:
    """What a method shows for one budget: its spans, and the tokens of the prompt it sends
    (for ctxopt's pack the rendered prompt, headers and paths included, as `pack --json`
    counts it; for the baselines and ranked lists the spans' own tokens)."""

    spans: tuple[Span, ...]
    prompt_tokens: int

    @classmethod
    def of_spans(cls, spans: Iterable[Span]) -> Selection:
        chosen = tuple(spans)
        return cls(chosen, sum(s.tokens for s in chosen))


def fill_budget(ranked: Iterable[Span], budget: int, *, disjoint: bool = False) -> list[Span]:
    """Spans in rank order while they fit; one that doesn't fit is skipped, the rest tried.
    disjoint: a span overlapping one already chosen of its file is skipped too (the sliding
    windows overlap by half: no line is paid for twice)."""
    chosen: list[Span] = []
    used = 0
    for span in ranked:
        if disjoint and any(_overlap(c, span) for c in chosen):
            continue
        if used + span.tokens <= budget:
            chosen.append(span)
            used += span.tokens
    return chosen


def _overlap(a: Span, b: Span) -> bool:
    return a.file == b.file and a.start_line <= b.end_line and b.start_line <= a.end_line


def rank_segments(task: str, segments: Sequence[Segment]) -> list[Span]:
    """Segments with a positive BM25 score, by (score desc, path, start line)."""
    scores = bm25_scores(tokenize(task), [s.terms for s in segments])
    spans = [
        Span(seg.path, seg.start_line, seg.end_line, seg.tokens, score)
        for seg, score in zip(segments, scores, strict=True)
        if score > 0
    ]
    return sorted(spans, key=lambda s: (-s.score, s.file, s.start_line))


def normalise_path(path: str) -> str:
    """POSIX, repo-relative, without a leading './'."""
    posix = path.replace("\\", "/")
    while posix.startswith("./"):
        posix = posix[2:]
    return posix
