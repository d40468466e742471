"""Where ctxopt's pack loses the changed lines it misses: one category per gold line.

For each case the pack is built in process (as `--runner library` does) and every changed
line is put in the first category that fits:

  shown          inside code the pack shows verbatim (a whole chunk or an excerpt's lines)
  shown-partly   its chunk is in the pack, but only as an excerpt elsewhere, a signature,
                 a stub or a path
  turned-away    its chunk was ranked but turned away (the reason: budget, per-file cap,
                 near-duplicate, dropped while fitting the prompt)
  not-candidate  its chunk was not among the ranked hits at all
  no-chunk       no chunk of the index holds the line

Beside the fates, each pack gets the two reference points of benchlib.bounds (ranking,
oracle) for the same room as its entries took.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchlib.bounds import oracle_coverage, ranking_coverage
from benchlib.mine import Case, GoldFile
from benchlib.select import Span
from benchlib.verbatim import shown_runs

CATEGORIES = ("shown", "shown-partly", "turned-away", "not-candidate", "no-chunk")
BOUNDS = ("ranking", "oracle")
SHOWN = ("full", "excerpt")


@dataclass(frozen=True)
class LineFate:
    path: str
    line: int
    category: str
    detail: str  # the reason a chunk was turned away, its fidelity, its rank ...


REASON_KEYS = {
    "per_file_cap": "per-file cap",
    "displaced": "per-file cap",  # made way for a higher-scored chunk of its file
    "made_room": "budget",  # made room for a higher-scored chunk of another file
    "near_duplicate": "near-duplicate",
    "copy_left_out": "budget",  # a near-duplicate of a chunk that was left out too
    "fitting": "fitting the prompt",
    "budget_full": "budget",
    "no_room": "budget",
    "empty": "nothing left after compression",
    "low_confidence": "low confidence",
}  # ctxopt.types.DropReason codes, as the report groups them (ctxopt is imported lazily)


def line_fates(gold: Sequence[GoldFile], result: Any, chunks_of: Any, root: Path) -> list[LineFate]:
    """The fate of every gold line in one pack (result: a ctxopt PackResult; chunks_of:
    path -> the index's chunks of that file; root: the work tree the pack read)."""
    chosen = {c.hit.chunk.id: c for c in result.chosen}
    shown = {c.hit.chunk.id: _summary_lines(root, c) for c in result.chosen if c.hit.chunk.summary}
    dropped = {d.hit.chunk.id: d.reason.value for d in result.dropped}
    rank = {hit.chunk.id: i for i, hit in enumerate(result.query.results)}
    fates: list[LineFate] = []
    for gold_file in gold:
        chunks = chunks_of(gold_file.path)
        for line in gold_file.lines:
            holders = [c for c in chunks if c.start_line <= line <= c.end_line]
            if not holders:
                fates.append(LineFate(gold_file.path, line, "no-chunk", ""))
                continue
            fates.append(_fate(gold_file.path, line, holders, chosen, shown, dropped, rank))
    return fates


def _summary_lines(root: Path, choice: Any) -> set[int]:
    """The lines a class summary repeats (its range also spans the bodies it leaves out)."""
    runs = _summary_runs(root, choice.hit.chunk, choice.content)
    return {n for first, last in runs for n in range(first, last + 1)}


def _summary_runs(root: Path, chunk: Any, content: str) -> list[tuple[int, int]]:
    return shown_runs(root / chunk.path, chunk.start_line, chunk.end_line, content)


def _fate(
    path: str,
    line: int,
    holders: Sequence[Any],
    chosen: dict[str, Any],
    shown: dict[str, set[int]],  # summary chunk id -> the lines it repeats
    dropped: dict[str, str],  # chunk id -> DropReason code
    rank: dict[str, int],
) -> LineFate:
    for chunk in holders:
        choice = chosen.get(chunk.id)
        if (
            choice is not None
            and choice.fidelity.value in SHOWN
            and choice.start_line <= line <= choice.end_line
            and (chunk.id not in shown or line in shown[chunk.id])
        ):
            return LineFate(path, line, "shown", choice.fidelity.value)
    smallest = min(holders, key=lambda c: c.end_line - c.start_line)
    if smallest.id in chosen:
        return LineFate(path, line, "shown-partly", chosen[smallest.id].fidelity.value)
    if smallest.id in dropped:
        detail = f"{REASON_KEYS[dropped[smallest.id]]}, rank {rank.get(smallest.id, '-')}"
        return LineFate(path, line, "turned-away", detail)
    return LineFate(path, line, "not-candidate", smallest.name)


@dataclass(frozen=True)
class PackDiagnosis:
    fates: list[LineFate]
    bounds: dict[str, float]  # BOUNDS name -> share of the case's changed lines


def _span(chunk: Any, root: Path) -> Span:
    """A chunk taken whole; a class summary is credited with its header's lines only (its
    range also spans the bodies it leaves out), at its whole cost."""
    if chunk.summary:
        runs = _summary_runs(root, chunk, chunk.text)
        first, last = runs[0] if runs else (chunk.start_line, chunk.start_line)
        return Span(chunk.path, first, last, chunk.tokens)
    return Span(chunk.path, chunk.start_line, chunk.end_line, chunk.tokens)


def pack_bounds(
    gold: Sequence[GoldFile], result: Any, chunks_of: Any, root: Path
) -> dict[str, float]:
    """The ranking and oracle shares of one pack's case, in the room its entries took."""
    room = sum(c.tokens for c in result.chosen)
    ranked = [_span(hit.chunk, root) for hit in result.query.results]
    chunks = [_span(chunk, root) for g in gold for chunk in chunks_of(g.path)]
    return {
        "ranking": ranking_coverage(gold, ranked, room),
        "oracle": oracle_coverage(gold, chunks, room),
    }


def summarise_bounds(per_case: Sequence[dict[str, float]]) -> dict[str, float]:
    """Mean of each bound over the cases."""
    n = len(per_case) or 1
    return {name: round(sum(b[name] for b in per_case) / n, 4) for name in BOUNDS}


def summarise_fates(per_case: Sequence[Sequence[LineFate]]) -> dict[str, Any]:
    """Mean share of each case's gold lines per category, and the turned-away reasons."""
    shares: dict[str, float] = defaultdict(float)
    reasons: dict[str, float] = defaultdict(float)
    cases = [fates for fates in per_case if fates]
    for fates in cases:
        for fate in fates:
            shares[fate.category] += 1 / len(fates)
            if fate.category == "turned-away":
                reasons[fate.detail.split(",")[0]] += 1 / len(fates)
    n = len(cases) or 1
    return {
        "categories": {c: round(shares[c] / n, 4) for c in CATEGORIES},
        "turned_away_by": {
            r: round(v / n, 4) for r, v in sorted(reasons.items(), key=lambda item: -item[1])
        },
        "cases": len(cases),
    }


def diagnose_case(case: Case, worktree: Path, budgets: Sequence[int]) -> dict[int, PackDiagnosis]:
    """Index the checked-out parent and build one pack per budget (ctxopt in process)."""
    from ctxopt.app.pack import refresh_then_pack
    from ctxopt.config.settings import load_settings
    from ctxopt.errors import BudgetError
    from ctxopt.index.build import build_index
    from ctxopt.index.store import IndexReader
    from ctxopt.pack.api import PackOptions
    from ctxopt.retrieve.candidates import CandidateSource

    settings = load_settings(worktree)
    build_index(settings)
    source = CandidateSource(IndexReader(settings.db_path))
    cache: dict[str, list[Any]] = {}

    def chunks_of(path: str) -> list[Any]:
        if path not in cache:
            cache[path] = source.in_files([path])
        return cache[path]

    out: dict[int, PackDiagnosis] = {}
    for budget in budgets:
        options = PackOptions(task=case.task, budget=budget, compression="none")
        try:
            result = refresh_then_pack(settings, options)
        except BudgetError:
            fates = [
                LineFate(g.path, line, "turned-away", "task over the budget")
                for g in case.gold
                for line in g.lines
            ]
            out[budget] = PackDiagnosis(fates, dict.fromkeys(BOUNDS, 0.0))
            continue
        out[budget] = PackDiagnosis(
            line_fates(case.gold, result, chunks_of, worktree),
            pack_bounds(case.gold, result, chunks_of, worktree),
        )
    return out
