"""The benchmark loop: mine cases, walk them oldest first in one work tree, score each method."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchlib.corpus import BlobCache, Snapshot
from benchlib.ctxopt_runner import CtxoptRunner
from benchlib.gitutil import BenchError, resolve
from benchlib.library_runner import LibraryRunner
from benchlib.metrics import CaseScore, score_case
from benchlib.mine import Case, is_source, mine_cases
from benchlib.select import Selection, Span, fill_budget, rank_segments
from benchlib.units import changed_units
from benchlib.worktree import WorkTree

SLIDING = "bm25-sliding"  # 60-line windows every 30 lines, none overlapping another chosen
CODE_WINDOWS = "bm25-code-window"  # the 60-line windows of source files only
BASELINES = ("bm25-file", "bm25-window", CODE_WINDOWS, SLIDING)
TUNED = "ctxopt-tuned"  # weights fitted by `ctxopt tune` on commits older than every case
METHODS = (*BASELINES, "ctxopt", TUNED)
DEFAULT_METHODS = ("bm25-file", "bm25-window", CODE_WINDOWS, "ctxopt")

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RunOptions:
    repo: Path
    cases: int = 40
    budgets: tuple[int, ...] = (4000, 8000, 16000)
    methods: tuple[str, ...] = DEFAULT_METHODS
    mode: str = "pack"
    since: str | None = None
    work: Path | None = None
    head: str = "HEAD"  # cases are mined from the commits reachable from this revision
    runner: str = "cli"  # or "library": ctxopt in this process


def _runner(options: RunOptions) -> CtxoptRunner | LibraryRunner:
    if options.runner == "library":
        return LibraryRunner(options.mode)
    return CtxoptRunner(options.mode)


@dataclass(frozen=True)
class CaseResult:
    case: Case
    scores: dict[str, dict[int, CaseScore]]  # method -> budget -> score


@dataclass(frozen=True)
class BenchReport:
    repo: str
    head: str
    options: RunOptions
    results: tuple[CaseResult, ...]  # oldest case first
    skipped: dict[str, int]
    seconds: dict[str, float] = field(default_factory=dict)  # method -> total time

    @property
    def range(self) -> str:
        if not self.results:
            return ""
        return f"{self.results[0].case.parent[:12]}..{self.results[-1].case.sha[:12]}"


def baseline_spans(task: str, snapshot: Snapshot, method: str) -> list[Span]:
    """Ranked spans of one baseline: whole files, 60-line windows (of every text file, or of
    the source files a case's gold can hold only) or sliding ones."""
    if method == CODE_WINDOWS:
        return rank_segments(task, [w for w in snapshot.windows if is_source(w.path)])
    segments = {"bm25-file": snapshot.files, SLIDING: snapshot.sliding}.get(
        method, snapshot.windows
    )
    return rank_segments(task, segments)


class _CaseRunner:
    def __init__(
        self,
        options: RunOptions,
        tree: WorkTree,
        cases: Sequence[Case] = (),
        progress: Progress | None = None,
    ) -> None:
        self.options = options
        self.tree = tree
        self.cache = BlobCache(sliding=SLIDING in options.methods)
        self.ctxopt = _runner(options) if "ctxopt" in options.methods else None
        self.tuned = LibraryRunner(options.mode) if TUNED in options.methods else None
        self.tuned_weights: dict[str, float] | None = None
        self.case_shas = frozenset(c.sha for c in cases)
        self.progress = progress
        self.seconds: dict[str, float] = dict.fromkeys(options.methods, 0.0)

    def run(self, case: Case) -> CaseResult:
        self.tree.checkout(case.parent)
        selections = self._baselines(case) | self._ctxopt(case) | self._tuned(case)
        units = changed_units(self.tree.path, case.gold)
        scores = {
            method: {
                b: score_case(
                    case.gold, chosen.spans, units, prompt_tokens=chosen.prompt_tokens, budget=b
                )
                for b, chosen in by_budget.items()
            }
            for method, by_budget in sorted(selections.items())
        }
        return CaseResult(case, scores)

    def _baselines(self, case: Case) -> dict[str, dict[int, Selection]]:
        methods = [m for m in self.options.methods if m in BASELINES]
        if not methods:
            return {}
        started = time.perf_counter()
        snapshot = self.cache.snapshot(self.tree.path)
        shared = time.perf_counter() - started
        out: dict[str, dict[int, Selection]] = {}
        for method in methods:
            started = time.perf_counter()
            ranked = baseline_spans(case.task, snapshot, method)
            disjoint = method == SLIDING
            out[method] = {
                b: Selection.of_spans(fill_budget(ranked, b, disjoint=disjoint))
                for b in self.options.budgets
            }
            self.seconds[method] += time.perf_counter() - started + shared / len(methods)
        return out

    def _ctxopt(self, case: Case) -> dict[str, dict[int, Selection]]:
        if self.ctxopt is None:
            return {}
        started = time.perf_counter()
        selected = self.ctxopt.select(case.task, self.tree.path, self.options.budgets)
        self.seconds["ctxopt"] += time.perf_counter() - started
        return {"ctxopt": selected}

    def _tuned(self, case: Case) -> dict[str, dict[int, Selection]]:
        """Tuned once, at the oldest case's parent: its history holds no case commit nor
        anything after one (and the case commits are excluded besides)."""
        if self.tuned is None:
            return {}
        started = time.perf_counter()
        if self.tuned_weights is None:
            outcome = self.tuned.tune(self.tree.path, self.case_shas)
            self.tuned_weights = dict(outcome.weights) if outcome.kept else {}
            if self.progress is not None:
                verdict = "kept" if outcome.kept else "not kept (defaults)"
                self.progress(
                    f"tuned on {outcome.commits} commits: held-out {outcome.before:.3f} -> "
                    f"{outcome.after:.3f}, {verdict}, {outcome.seconds:.1f}s"
                )
        weights = self.tuned_weights
        selected = self.tuned.select(case.task, self.tree.path, self.options.budgets, weights)
        self.seconds[TUNED] += time.perf_counter() - started
        return {TUNED: selected}


def validate(options: RunOptions) -> None:
    """Stop before any work on options that cannot run."""
    unknown = sorted(set(options.methods) - set(METHODS))
    if unknown:
        known = ", ".join(METHODS)
        raise BenchError(f"unknown method(s) {', '.join(unknown)}; choose from {known}")
    if TUNED in options.methods and options.runner != "library":
        raise BenchError(f"{TUNED} runs with --runner library")
    if options.mode not in ("pack", "query"):
        raise BenchError(f"--mode must be pack or query, not {options.mode!r}")
    if not options.budgets or min(options.budgets) <= 0:
        raise BenchError("--budgets needs positive token counts, e.g. --budgets 4000,8000,16000")
    if options.cases <= 0:
        raise BenchError(f"--cases must be positive, not {options.cases}")
    if not (options.repo / ".git").exists() and not (options.repo / "HEAD").exists():
        raise BenchError(f"{options.repo} is not a git repository; pass one with --repo")


def run_benchmark(options: RunOptions, progress: Progress) -> BenchReport:
    """Mine the cases and score every method at every budget on each."""
    validate(options)
    if "ctxopt" in options.methods or TUNED in options.methods:
        _runner(options).check()
    head = resolve(options.repo, options.head)
    if options.since:
        resolve(options.repo, options.since)
    mined = mine_cases(options.repo, options.cases, head=head, since=options.since)
    progress(f"{len(mined.cases)} cases; skipped {_reasons(mined.skipped)}")
    if not mined.cases:
        raise BenchError("no eligible commits; try a longer history or an earlier --since")
    results: list[CaseResult] = []
    with WorkTree(options.repo, options.work) as tree:
        runner = _CaseRunner(options, tree, mined.cases, progress)
        for i, case in enumerate(mined.cases, 1):
            progress(f"[{i}/{len(mined.cases)}] {case.sha[:10]} {case.subject[:60]}")
            results.append(runner.run(case))
    name = options.repo.resolve().name
    seconds = {m: round(s, 2) for m, s in sorted(runner.seconds.items())}
    progress("seconds: " + ", ".join(f"{m} {s:.1f}" for m, s in seconds.items()))
    return BenchReport(name, head, options, tuple(results), mined.skipped, seconds)


def _reasons(skipped: dict[str, int]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in skipped.items()) or "none"


def selected_methods(report: BenchReport) -> Sequence[str]:
    """The methods of the report in the canonical order."""
    return [m for m in METHODS if m in report.options.methods]
