"""`index_repository`: what `ctxopt index` does, with the no-change answer from the
freshness snapshot and the parser workers started before the indexer loads."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ctxopt.config.settings import Settings
from ctxopt.discover import git
from ctxopt.index import snapshot
from ctxopt.index.lock import index_lock
from ctxopt.types import IndexStats

if TYPE_CHECKING:
    from ctxopt.index.build import Progress


def index_repository(
    settings: Settings,
    *,
    full: bool = False,
    progress: Progress | None = None,
    wait: bool = False,
    workers: int | None = None,
) -> IndexStats:
    """Bring the index up to date (see index.build.build_index) and return its figures.

    When nothing git lists and nothing in the index folder changed since the index was last
    made or found fresh, HEAD is the same and the embedder is not set anew, the figures come
    from the snapshot: the same as a run that finds nothing to do, without opening the index.
    """
    started = time.perf_counter()
    with git.one_view():  # the snapshot, discovery and the plan ask git once
        before = snapshot.capture(settings)  # before anything reads a file
        if before is not None and not full:
            stats = unchanged_stats(settings, before, started, wait=wait)
            if stats is not None:
                return stats
        head = snapshot.current_head(settings) if before is not None else ""
        start_parsers(settings)
        stats = _build(settings, full=full, progress=progress, wait=wait, workers=workers)
    if before is not None:
        keep(settings, before, stats, head)
    return stats


def unchanged_stats(
    settings: Settings, before: snapshot.TreeState, started: float, *, wait: bool
) -> IndexStats | None:
    """The figures of a run with nothing to do, or None when the snapshot does not vouch."""
    db = snapshot.index_folder(settings)
    holds, figures = snapshot.matches(db, before)
    if not holds or figures is None or settings.source("embedder") != "default":
        return None
    with index_lock(db, wait=wait):  # a run in progress: busy, as for any run
        if figures.head != snapshot.current_head(settings):
            return None  # the index records the commit it was made at: a run updates it
    return figures.stats(db, time.perf_counter() - started)


def keep(settings: Settings, before: snapshot.TreeState, stats: IndexStats, head: str) -> None:
    """After this process's run: the tree as captured before it, against the folder the run
    left, is the next run's snapshot (none when another run may have written since)."""
    after = snapshot.after_own_run(settings, before)
    if after is None:
        snapshot.discard(snapshot.index_folder(settings))
    else:
        snapshot.save(snapshot.index_folder(settings), after, snapshot.Figures.of(stats, head))


def _build(
    settings: Settings,
    *,
    full: bool,
    progress: Progress | None,
    wait: bool,
    workers: int | None,
) -> IndexStats:
    """The indexer, imported only when the snapshot cannot answer."""
    from ctxopt.index.build import build_index

    return build_index(settings, full=full, progress=progress, wait=wait, workers=workers)


def start_parsers(settings: Settings) -> None:
    """Start the parser workers' fork server now: its start (a new interpreter importing the
    parsers and loading the static embedding model) overlaps the indexer's own imports and
    plan instead of following them.  Most runs that get here have files to parse; for the
    others it is an idle process."""
    from ctxopt.index.file_jobs import warm_up

    warm_up(settings.model_cache if settings.embedder == "static" else None)
