"""The query entry point shared by `query`, `pack` and benchmarks: refresh, then search."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ctxopt.config.settings import Settings
from ctxopt.errors import IndexBusyError
from ctxopt.index.freshness import stale_count, stale_plan
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.search import QueryOptions, QueryResult, search
from ctxopt.wording import plural


@dataclass(frozen=True)
class Freshness:
    stale: int  # files that differed from the index before this call
    refreshed: bool  # whether they were re-indexed first


def ensure_fresh(
    settings: Settings, *, refresh: bool, notify: Callable[[str], None] | None = None
) -> tuple[Freshness, IndexReader]:
    """Re-index incrementally when files changed since indexing (unless refresh is False).

    Returns the freshness and a reader of the index as it now is.
    """
    reader = IndexReader(settings.db_path)
    stale = stale_count(stale_plan(settings, reader))
    if stale and refresh:
        from ctxopt.index.build import build_index

        if notify:
            notify(f"refreshing the index: {plural(stale, 'file')} changed since it was built")
        try:
            build_index(settings)
        except IndexBusyError:  # a `ctxopt index` is running: read the last committed index
            if notify:
                notify("another ctxopt index is running; using the last complete index")
            return Freshness(stale, False), reader
        return Freshness(stale, True), IndexReader(settings.db_path)
    return Freshness(stale, False), reader


def run_query(
    settings: Settings,
    task: str,
    options: QueryOptions,
    *,
    refresh: bool = True,
    notify: Callable[[str], None] | None = None,
) -> tuple[QueryResult, Freshness]:
    freshness, reader = ensure_fresh(settings, refresh=refresh, notify=notify)
    return search(settings, task, options, reader=reader), freshness
