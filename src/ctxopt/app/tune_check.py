"""The held-out check of `ctxopt tune`: real packs, scored by the changed lines they show.

Fitting ranks stored feature vectors; the pack that users get also caps files, steps long
chunks down to excerpts and takes its first picks whole, so a gain in the fit's objective
need not reach the pack.  The check therefore packs each held-out commit's message for real,
once with the default weights and once with the fitted ones, and scores each pack by the
share of the lines the commit added (still in the code) that it shows verbatim.  The fitted
weights win only when their packs show more on average and on more commits than they show
less: most held-out packs come out the same either way, and a mean carried by one or two
commits (while more lose) is not a gain to keep.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import fmean

from ctxopt.app.pack import refresh_then_pack
from ctxopt.config.settings import Settings
from ctxopt.errors import BudgetError
from ctxopt.index.store import IndexReader
from ctxopt.pack.api import PackOptions
from ctxopt.tune.examples import Example
from ctxopt.tune.fit import MIN_GAIN
from ctxopt.types import Fidelity, PackResult

CHECK_BUDGET = 8000  # tokens of each check pack
TIE = 1e-9  # shares closer than this are the same
CHECK_MEASURE = f"held-out changed lines shown at {CHECK_BUDGET // 1000}k"
SHOWN = frozenset({Fidelity.FULL, Fidelity.EXCERPT})  # fidelities that show lines verbatim

Line = tuple[str, str]  # (path, stripped text)


@dataclass(frozen=True)
class CheckCase:
    """A held-out commit as the check reads it: its task and the lines it added that are
    still in the code."""

    task: str
    wanted: frozenset[Line]


def check_cases(settings: Settings, examples: Sequence[Example]) -> list[CheckCase]:
    """The held-out commits (as `build_examples` read them) that added lines still in the
    code; the others say nothing either way."""
    cases = []
    for example in examples:
        wanted = _still_in_code(settings, example.paths, example.added)
        if wanted:
            cases.append(CheckCase(example.task, wanted))
    return cases


@dataclass(frozen=True)
class CheckOutcome:
    """The held-out check: the mean share of added lines shown with each weighting, and on
    how many commits the fitted weights' pack showed more, or fewer, than the defaults'."""

    before: float
    after: float
    better: int
    worse: int

    @property
    def fitted_win(self) -> bool:
        return self.after >= self.before + MIN_GAIN and self.better > self.worse


def compare(defaults: Sequence[float], fitted: Sequence[float]) -> CheckOutcome:
    """The check's outcome from each case's share with the default and the fitted weights."""
    pairs = list(zip(defaults, fitted, strict=True))
    return CheckOutcome(
        before=fmean(defaults) if pairs else 0.0,
        after=fmean(fitted) if pairs else 0.0,
        better=sum(1 for old, new in pairs if new > old + TIE),
        worse=sum(1 for old, new in pairs if new < old - TIE),
    )


def shown_shares(
    settings: Settings,
    reader: IndexReader,
    cases: Sequence[CheckCase],
    weightings: Sequence[Mapping[str, float]],
    budget: int = CHECK_BUDGET,
    progress: Callable[[int], None] | None = None,
) -> list[list[float]]:
    """For each weighting, each case's share of its added lines that a pack of its task
    shows, ranked with exactly those weights.  progress: called with the packs done so far."""
    shares = []
    done = 0
    for weights in weightings:
        fixed = replace(settings, weights=tuple(sorted(weights.items())))
        per_case = []
        for case in cases:
            result = _pack(fixed, reader, case.task, budget)
            shown = _shown(result, case.wanted) if result is not None else set()
            per_case.append(len(shown) / len(case.wanted))
            done += 1
            if progress is not None:
                progress(done)
        shares.append(per_case)
    return shares


def _still_in_code(
    settings: Settings, paths: Sequence[str], added: frozenset[str]
) -> frozenset[Line]:
    found: set[Line] = set()
    for path in paths if added else ():
        try:
            text = (settings.root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found |= {(path, line) for line in map(str.strip, text.splitlines()) if line in added}
    return frozenset(found)


def _pack(settings: Settings, reader: IndexReader, task: str, budget: int) -> PackResult | None:
    options = PackOptions(task=task, budget=budget, compression="none")
    try:
        return refresh_then_pack(settings, options, refresh=False, reader=reader, known_fresh=True)
    except BudgetError:  # the message alone is over the budget: the pack shows nothing
        return None


def _shown(result: PackResult, wanted: frozenset[Line]) -> set[Line]:
    """The wanted lines among those the pack shows verbatim."""
    found: set[Line] = set()
    for choice in result.chosen:
        if choice.fidelity not in SHOWN:
            continue
        chunk = choice.hit.chunk
        lines = chunk.text.split("\n")[
            choice.start_line - chunk.start_line : choice.end_line - chunk.start_line + 1
        ]
        found |= {(chunk.path, line.strip()) for line in lines} & wanted
    return found
