"""`refresh_then_pack`: what `ctxopt pack` does, with or without a git change."""

from __future__ import annotations

from dataclasses import replace

from ctxopt.app.refresh import Notify
from ctxopt.app.warm import refreshed_index
from ctxopt.config.settings import Settings
from ctxopt.discover.changes import ChangeRequest, read_change
from ctxopt.index.store import IndexReader
from ctxopt.pack.api import PackOptions, check_options, pack_query, pack_query_result
from ctxopt.pack.diff import diff_preface
from ctxopt.retrieve.changes import touched_chunks
from ctxopt.retrieve.search import search
from ctxopt.types import PackResult
from ctxopt.wording import plural


def refresh_then_pack(
    settings: Settings,
    options: PackOptions,
    *,
    refresh: bool = True,
    change: ChangeRequest | None = None,
    notify: Notify | None = None,
    reader: IndexReader | None = None,
    known_fresh: bool = False,
) -> PackResult:
    """The best prompt for the task within the budget.

    In order: the options are checked, the git change (if any) is read, the index is
    refreshed once (unless refresh is False), the chunks the change touches become
    mandatory hits with the diff as a preface, the query runs and its result is packed.
    reader, known_fresh: see `refresh_index`.
    """
    check_options(settings, options)
    diff = read_change(settings.root, change) if change is not None else None
    with refreshed_index(
        settings, refresh=refresh, notify=notify, reader=reader, known_fresh=known_fresh
    ) as (freshness, current):
        if diff is not None:
            options = replace(
                options, extra_hits=touched_chunks(current, diff.ranges), preface=diff_preface(diff)
            )
        text, query_options = pack_query(options)
        query = search(settings, text, query_options, reader=current)
        result = pack_query_result(settings, options, query, current, stale=freshness.left_stale)
    warnings = result.warnings
    if freshness.held_back:  # said once, before the count of stale files
        warnings = (f"the changed files were not re-indexed: {freshness.held_back}", *warnings)
    if result.stale:  # a warning like the others: --json and the MCP tool give it too
        stale = f"{plural(result.stale, 'file')} changed since indexing; the pack may be stale"
        warnings = (*warnings, stale)
    return replace(result, warnings=warnings)
