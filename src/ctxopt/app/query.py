"""`refresh_then_query`: what `ctxopt query` does."""

from __future__ import annotations

from ctxopt.app.refresh import Freshness, Notify, refresh_index
from ctxopt.config.settings import Settings
from ctxopt.retrieve.search import QueryOptions, QueryResult, search


def refresh_then_query(
    settings: Settings,
    task: str,
    options: QueryOptions,
    *,
    refresh: bool = True,
    notify: Notify | None = None,
) -> tuple[QueryResult, Freshness]:
    """Re-index changed files (unless refresh is False), then rank the chunks for the task."""
    freshness, reader = refresh_index(settings, refresh=refresh, notify=notify)
    return search(settings, task, options, reader=reader), freshness
