"""Score a selection against a case's gold files and lines, and average over cases."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from benchlib.mine import GoldFile
from benchlib.select import Span


@dataclass(frozen=True)
class CaseScore:
    file_recall: float  # share of gold files with at least one selected span
    hit: bool  # at least one gold file hit
    line_coverage: float  # share of gold lines inside a selected span
    tokens: int  # tokens of the selected spans
    spans: int
    files_hit: tuple[str, ...]


@dataclass(frozen=True)
class Summary:
    file_recall: float
    hit_rate: float
    line_coverage: float
    mean_tokens: float
    cases: int


def _ranges_by_file(spans: Sequence[Span]) -> dict[str, list[tuple[int, int]]]:
    ranges: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for span in spans:
        ranges[span.file].append((span.start_line, span.end_line))
    return ranges


def score_case(gold: Sequence[GoldFile], spans: Sequence[Span]) -> CaseScore:
    """File recall, hit and changed-line coverage of spans for one case."""
    ranges = _ranges_by_file(spans)
    files_hit = tuple(sorted(g.path for g in gold if g.path in ranges))
    total_lines = sum(len(g.lines) for g in gold)
    covered = sum(
        1
        for g in gold
        for line in g.lines
        if any(start <= line <= end for start, end in ranges.get(g.path, ()))
    )
    return CaseScore(
        file_recall=len(files_hit) / len(gold) if gold else 0.0,
        hit=bool(files_hit),
        line_coverage=covered / total_lines if total_lines else 0.0,
        tokens=sum(s.tokens for s in spans),
        spans=len(spans),
        files_hit=files_hit,
    )


def summarise(scores: Sequence[CaseScore]) -> Summary:
    """Means over cases (zeros for no cases)."""
    n = len(scores)
    if n == 0:
        return Summary(0.0, 0.0, 0.0, 0.0, 0)
    return Summary(
        file_recall=sum(s.file_recall for s in scores) / n,
        hit_rate=sum(1 for s in scores if s.hit) / n,
        line_coverage=sum(s.line_coverage for s in scores) / n,
        mean_tokens=sum(s.tokens for s in scores) / n,
        cases=n,
    )
