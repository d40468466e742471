"""`ctxopt tune`: fit the ranking weights of a repository to its own recent commits.

Each usable commit (a message of a few words, 1 to 10 modified source files the index holds)
is a task whose answer is known: the code it changed.  Its candidates' features are computed
once with the default weights; the newest HELD_OUT_SHARE of the commits are set aside, the
weights are fitted on the rest, and they are kept only when real packs of the held-out
commits' messages show more of the lines those commits added than packs with the default
weights do (app.tune_check).  The outcome is stored with the index either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from ctxopt.app.refresh import refresh_index
from ctxopt.app.tune_check import (
    CHECK_BUDGET,
    CHECK_MEASURE,
    check_cases,
    compare,
    shown_shares,
)
from ctxopt.config.settings import Settings
from ctxopt.discover.git import head_commit, shallow_note
from ctxopt.discover.history import recent_commits
from ctxopt.errors import UsageError
from ctxopt.index.store import IndexReader
from ctxopt.index.tuned import TunedWeights, write_tuned
from ctxopt.retrieve.scoring import merge_weights
from ctxopt.tune import DEFAULT_COMMITS
from ctxopt.tune.examples import build_examples, usable
from ctxopt.tune.fit import as_vector, as_weights, coordinate_ascent, prepare
from ctxopt.types import PastCommit

MIN_EXAMPLES = 20  # fewer usable commits teach nothing reliable
HELD_OUT_SHARE = 0.25
MIN_HELD_OUT = 5

Notify = Callable[[str], None]


def tune(
    settings: Settings,
    *,
    commits: int = DEFAULT_COMMITS,
    head: str = "HEAD",
    exclude: Collection[str] = (),
    notify: Notify | None = None,
    store: bool = True,
) -> TunedWeights:
    """Fit, check on held-out commits, and (with store) keep the outcome with the index.

    head: the history is read from this revision; exclude: commits never used (the
    benchmark's cases)."""
    if commits < 1:
        raise UsageError(f"--commits must be at least 1, got {commits}")
    started = time.perf_counter()
    _, reader = refresh_index(settings, refresh=True, notify=notify)
    history = [c for c in recent_commits(settings.root, head, commits) if c.sha not in exclude]
    if not history:
        none = not head_commit(settings.root)  # outside git, or no commit yet
        what = "it has no git history" if none else f"none of the last {commits} modifies a file"
        raise UsageError(
            f"too few commits to tune on at {settings.root}: {what} (need {MIN_EXAMPLES} that "
            f"modify indexed source files); the default weights stay in force"
            f"{'' if none else shallow_note(settings.root)}"
        )
    outcome = fit_history(settings, reader, history, head=head, notify=notify)
    outcome = replace(outcome, seconds=round(time.perf_counter() - started, 2))
    if store:
        write_tuned(settings.db_path, outcome)
    return outcome


def fit_history(
    settings: Settings,
    reader: IndexReader,
    history: Sequence[PastCommit],
    *,
    head: str = "HEAD",
    notify: Notify | None = None,
) -> TunedWeights:
    """Fit on the usable commits of history (newest first) and check on the newest of them.
    UsageError when fewer than MIN_EXAMPLES are usable."""
    say = notify or (lambda _text: None)
    started = time.perf_counter()
    indexed = set(reader.file_records())
    teaching = sum(1 for commit in history if usable(commit, indexed) is not None)
    if teaching < MIN_EXAMPLES:  # counted before any commit's message is ranked
        raise UsageError(
            f"too few commits to tune on: {teaching} of the last {len(history)} have a "
            f"message of four words or more and modify 1 to 10 indexed source files (need "
            f"{MIN_EXAMPLES}); the default weights stay in force{shallow_note(settings.root)}"
        )
    say(f"reading {len(history)} commits: the candidates of each message")
    step = max(1, len(history) // 10)

    def progress(done: int, total: int) -> None:
        if done == total or done % step == 0:
            say(f"  {done}/{total} commits that can teach")

    examples = build_examples(settings, reader, history, progress)  # one per teaching commit
    held = max(MIN_HELD_OUT, round(len(examples) * HELD_OUT_SHARE))  # examples: newest first
    train = [prepare(e) for e in examples[held:]]
    embedder = reader.meta().embedder
    start = as_vector(merge_weights(embedder=embedder))
    say(f"fitting on {len(train)} commits, checking on the {held} newest")
    fitted = coordinate_ascent(start, train, lambda r: say(f"  round {r} done"))
    cases = check_cases(settings, examples[:held])
    say(f"packing the {held} newest at {CHECK_BUDGET:,} tokens, with default and fitted weights")
    packs = 2 * len(cases)
    every = max(1, -(-packs // 5))  # about five progress lines

    def packed(done: int) -> None:
        if done == packs or done % every == 0:
            say(f"  {done}/{packs} packs")

    weightings = [as_weights(start), as_weights(fitted)]
    check = compare(*shown_shares(settings, reader, cases, weightings, progress=packed))
    kept = check.fitted_win
    return TunedWeights(
        weights=as_weights(fitted) if kept else {},
        kept=kept,
        embedder=embedder,
        head=head_commit(settings.root) if head == "HEAD" else head,
        commits=len(examples),
        held_out=held,
        before=round(check.before, 4),
        after=round(check.after, 4),
        better=check.better,
        worse=check.worse,
        fitted=as_weights(fitted),
        seconds=round(time.perf_counter() - started, 2),
        tuned_at=time.time(),
        measure=CHECK_MEASURE,
    )
