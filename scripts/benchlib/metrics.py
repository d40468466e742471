"""Score a selection against a case's gold files and lines, and average over cases.

Beside file recall and changed-line coverage, the two figures users of such tools compare:
- all_files: every changed file has code in the selection (spans are shown code only);
- functions: a changed function (a `ChangedUnit`: the chunk a changed line falls in) is
  shown when the selection holds it whole, or holds every changed line of it (an excerpt
  or window holding the change); `all_functions` says every changed function was shown,
  `function_recall` is the share that were.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from benchlib.mine import GoldFile
from benchlib.select import Span


@dataclass(frozen=True)
class ChangedUnit:
    """One changed function (or other chunk) of a case and its changed lines."""

    file: str
    start_line: int
    end_line: int
    lines: tuple[int, ...]  # the case's changed lines inside start_line..end_line


@dataclass(frozen=True)
class CaseScore:
    file_recall: float  # share of gold files with at least one selected span
    hit: bool  # at least one gold file hit
    line_coverage: float  # share of gold lines inside a selected span
    tokens: int  # tokens of the prompt (ctxopt's pack: as rendered; others: the spans')
    spans: int
    files_hit: tuple[str, ...]
    all_files: bool = False  # every gold file has a selected span
    function_recall: float = 0.0  # share of changed units shown (whole or their changed lines)
    all_functions: bool = False  # every changed unit shown
    over_budget: bool = False  # the prompt holds more tokens than the budget it was made for


@dataclass(frozen=True)
class Summary:
    file_recall: float
    hit_rate: float
    line_coverage: float
    mean_tokens: float
    cases: int
    all_files: float = 0.0  # share of cases with every changed file shown
    function_recall: float = 0.0
    all_functions: float = 0.0  # share of cases with every changed function shown
    over_budget: int = 0  # cases whose prompt holds more tokens than its budget


def _ranges_by_file(spans: Sequence[Span]) -> dict[str, list[tuple[int, int]]]:
    ranges: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for span in spans:
        ranges[span.file].append((span.start_line, span.end_line))
    return ranges


def _covered(line: int, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(start <= line <= end for start, end in ranges)


def unit_shown(unit: ChangedUnit, ranges: Sequence[tuple[int, int]]) -> bool:
    """Shown whole, or every changed line of it shown."""
    whole = all(_covered(n, ranges) for n in range(unit.start_line, unit.end_line + 1))
    return whole or all(_covered(n, ranges) for n in unit.lines)


def score_case(
    gold: Sequence[GoldFile],
    spans: Sequence[Span],
    units: Sequence[ChangedUnit] = (),
    *,
    prompt_tokens: int | None = None,
    budget: int | None = None,
) -> CaseScore:
    """File recall, hit, changed-line coverage and changed-function figures of one case.

    With no units given, each changed line is its own unit. prompt_tokens: the tokens of
    the prompt that showed the spans (default: the spans' own); over a budget given, the
    case counts as over budget."""
    tokens = sum(s.tokens for s in spans) if prompt_tokens is None else prompt_tokens
    ranges = _ranges_by_file(spans)
    files_hit = tuple(sorted(g.path for g in gold if g.path in ranges))
    total_lines = sum(len(g.lines) for g in gold)
    covered = sum(1 for g in gold for n in g.lines if _covered(n, ranges.get(g.path, ())))
    if not units:
        units = [ChangedUnit(g.path, n, n, (n,)) for g in gold for n in g.lines]
    shown = sum(1 for u in units if unit_shown(u, ranges.get(u.file, ())))
    return CaseScore(
        file_recall=len(files_hit) / len(gold) if gold else 0.0,
        hit=bool(files_hit),
        line_coverage=covered / total_lines if total_lines else 0.0,
        tokens=tokens,
        spans=len(spans),
        files_hit=files_hit,
        all_files=bool(gold) and len(files_hit) == len(gold),
        function_recall=shown / len(units) if units else 0.0,
        all_functions=bool(units) and shown == len(units),
        over_budget=budget is not None and tokens > budget,
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
        all_files=sum(1 for s in scores if s.all_files) / n,
        function_recall=sum(s.function_recall for s in scores) / n,
        all_functions=sum(1 for s in scores if s.all_functions) / n,
        over_budget=sum(1 for s in scores if s.over_budget),
    )
