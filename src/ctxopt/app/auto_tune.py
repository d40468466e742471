"""Tuning the ranking weights as `ctxopt index` runs (setting `auto_tune`, off by default: on
the development split tuned weights packed fewer changed lines than the defaults; README).

A repository is tuned once its recent history holds MIN_USABLE commits that can teach (see
tune.examples.usable), and tuned again when HEAD has moved RETUNE_AFTER commits past the
commit it was last tuned at, or off that commit's line (another branch, rewritten history:
the weights come only from commits reachable from HEAD).  A run of `ctxopt tune` counts as
a tuning.  As with `ctxopt tune`, the fitted weights are in force only when they beat the
defaults on the newest commits, held out.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ctxopt.config.settings import Settings
from ctxopt.discover.git import commits_since, head_commit, shallow_note
from ctxopt.index.tuned import TunedWeights, read_tuned, write_tuned

MIN_USABLE = 40  # fewer leave too few held-out commits to tell a gain from noise
RETUNE_AFTER = 100  # commits since the last tuning before weights are fitted anew

Notify = Callable[[str], None]


def retune_reason(settings: Settings, stored: TunedWeights | None, head: str) -> str | None:
    """Why the weights should be fitted now, or None while the last tuning holds."""
    if stored is None:
        return "first tuning"
    if stored.head == head:
        return None
    if stored.skipped:
        return "HEAD moved"  # history may have grown enough
    since = commits_since(settings.root, stored.head, head)
    if since is None:
        return f"HEAD left the line of {stored.head[:12]}, where it was last tuned"
    if since >= RETUNE_AFTER:
        return f"{since} commits since it was last tuned"
    return None


def tune_when_due(
    settings: Settings, embedder: str, notify: Notify | None = None
) -> TunedWeights | None:
    """Fit and store the ranking weights of the repository just indexed (with embedder)
    when due and its history allows, or record that it does not (`skipped`); None when
    nothing was due.  The check alone reads no index: a run with nothing to do stays fast."""
    if not settings.auto_tune:
        return None
    head = head_commit(settings.root)
    if not head:
        return None
    reason = retune_reason(settings, read_tuned(settings.db_path, embedder), head)
    if reason is None:
        return None
    from ctxopt.discover.history import recent_commits
    from ctxopt.tune import DEFAULT_COMMITS

    history = recent_commits(settings.root, "HEAD", DEFAULT_COMMITS)
    if len(history) < MIN_USABLE:  # known without opening the index
        return _too_little(settings, embedder, head, len(history), len(history))
    from ctxopt.app.tune import fit_history
    from ctxopt.index.store import IndexReader
    from ctxopt.tune.examples import usable

    reader = IndexReader(settings.db_path)
    indexed = set(reader.file_records())
    count = sum(usable(commit, indexed) is not None for commit in history)
    if count < MIN_USABLE:
        return _too_little(settings, embedder, head, count, len(history))
    if notify is not None:
        notify(
            f"tuning the ranking weights to the last {len(history)} commits ({reason}; "
            "setting auto_tune)"
        )
    outcome = fit_history(settings, reader, history, head=head, notify=notify)
    write_tuned(settings.db_path, outcome)
    return outcome


def _too_little(
    settings: Settings, embedder: str, head: str, usable: int, read: int
) -> TunedWeights:
    """Record that the history at head is too short to tune on: the next run at the same
    HEAD need not look again."""
    why = (
        f"too little history to tune on: {usable} of the last {read} commits can teach, "
        f"{MIN_USABLE} needed{shallow_note(settings.root)}"
    )
    outcome = TunedWeights(
        {}, False, embedder, head, usable, 0, 0.0, 0.0, tuned_at=time.time(), skipped=why
    )
    write_tuned(settings.db_path, outcome)
    return outcome
