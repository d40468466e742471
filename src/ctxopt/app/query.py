"""`refresh_then_query`: what `ctxopt query` does."""

from __future__ import annotations

from dataclasses import replace

from ctxopt.app.refresh import Freshness, Notify
from ctxopt.app.warm import refreshed_index
from ctxopt.config.settings import Settings
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.search import QueryOptions, search
from ctxopt.secrets.chunks import redacted_hits
from ctxopt.types import QueryResult


def refresh_then_query(
    settings: Settings,
    task: str,
    options: QueryOptions,
    *,
    refresh: bool = True,
    notify: Notify | None = None,
    reader: IndexReader | None = None,
    known_fresh: bool = False,
) -> tuple[QueryResult, Freshness]:
    """Re-index changed files (unless refresh is False), then rank the chunks for the task;
    the secrets of the ranked chunks are redacted unless settings.allow_secrets.  reader:
    an open reader of the last committed index to reuse; known_fresh: see `refresh_index`."""
    with refreshed_index(
        settings, refresh=refresh, notify=notify, reader=reader, known_fresh=known_fresh
    ) as (freshness, current):
        result = search(settings, task, options, reader=current)
    if not settings.allow_secrets:
        result = replace(result, results=tuple(redacted_hits(result.results)))
    return result, freshness
