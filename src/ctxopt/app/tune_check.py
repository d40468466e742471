"""The held-out check of `ctxopt tune`: real packs, scored by the changed lines they show.

Fitting ranks stored feature vectors; the pack that users get also caps files, steps long
chunks down to excerpts and takes its first picks whole, so a gain in the fit's objective
need not reach the pack.  The check therefore packs each held-out commit's message for real,
once with the default weights and once with the fitted ones, and scores each pack by the
share of the lines the commit added (still in the code) that it shows verbatim.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from statistics import fmean

from ctxopt.app.pack import refresh_then_pack
from ctxopt.config.settings import Settings
from ctxopt.discover.history import added_lines
from ctxopt.errors import BudgetError
from ctxopt.index.store import IndexReader
from ctxopt.pack.api import PackOptions
from ctxopt.tune.examples import task_of, usable
from ctxopt.types import Fidelity, PackResult, PastCommit

CHECK_BUDGET = 8000  # tokens of each check pack
CHECK_MEASURE = f"held-out changed lines shown at {CHECK_BUDGET // 1000}k"
SHOWN = frozenset({Fidelity.FULL, Fidelity.EXCERPT})  # fidelities that show lines verbatim

Line = tuple[str, str]  # (path, stripped text)


def shown_share(
    settings: Settings,
    reader: IndexReader,
    commits: Sequence[PastCommit],
    weights: Mapping[str, float],
    budget: int = CHECK_BUDGET,
    progress: Callable[[int], None] | None = None,
) -> float:
    """Mean over commits of the share of their added lines a pack of their message shows,
    ranked with exactly these weights (commits with no added line left in the code count
    for nothing either way and are skipped).  progress: called with the commits done."""
    indexed = set(reader.file_records())
    fixed = replace(settings, weights=tuple(sorted(weights.items())))
    shares = []
    for done, commit in enumerate(commits, 1):
        gold = usable(commit, indexed) or ()
        wanted = _added_in_code(settings, commit.sha, gold)
        if wanted:
            result = _pack(fixed, reader, task_of(commit.message), budget)
            shares.append(len(_shown(result, wanted)) / len(wanted) if result else 0.0)
        if progress is not None:
            progress(done)
    return fmean(shares) if shares else 0.0


def _added_in_code(settings: Settings, sha: str, paths: Sequence[str]) -> set[Line]:
    added = added_lines(settings.root, sha, paths)
    found: set[Line] = set()
    for path in paths if added else ():
        try:
            text = (settings.root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found |= {(path, line.strip()) for line in text.splitlines() if line.strip() in added}
    return found


def _pack(settings: Settings, reader: IndexReader, task: str, budget: int) -> PackResult | None:
    options = PackOptions(task=task, budget=budget, compression="none")
    try:
        return refresh_then_pack(settings, options, refresh=False, reader=reader, known_fresh=True)
    except BudgetError:  # the message alone is over the budget: the pack shows nothing
        return None


def _shown(result: PackResult, wanted: set[Line]) -> set[Line]:
    found: set[Line] = set()
    for choice in result.chosen:
        if choice.fidelity not in SHOWN:
            continue
        chunk = choice.hit.chunk
        lines = chunk.text.splitlines()
        first = choice.start_line - chunk.start_line
        for line in lines[first : choice.end_line - chunk.start_line + 1]:
            if (chunk.path, line.strip()) in wanted:
                found.add((chunk.path, line.strip()))
    return found
