"""The refresh before a query or a pack: re-index the files that changed since indexing.

An index on object storage is shared: a team's checkouts read what CI built, and one
person's uncommitted edits must not rewrite it for everyone.  So there the check runs (the
work tree against the stored file records, by content hash) and its result is reported,
but only `ctxopt index --db URI` writes; the caller warns as for --no-refresh."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ctxopt.app.index import keep, start_parsers
from ctxopt.chunking import CHUNKER_VERSION
from ctxopt.config.paths import is_object_store
from ctxopt.config.settings import Settings
from ctxopt.errors import IndexBusyError, IndexReadOnlyError
from ctxopt.index import snapshot
from ctxopt.index.freshness import stale_count, stale_plan
from ctxopt.index.hash_cache import HashCache
from ctxopt.index.lock import held_for_refresh
from ctxopt.index.owner import check_owner
from ctxopt.index.schema import check_format
from ctxopt.index.store import IndexReader
from ctxopt.types import IndexStats
from ctxopt.wording import plural

Notify = Callable[[str], None]
OLD_CHUNKS_WARNING = (
    "the index's chunks were made by an older ctxopt chunker; run `ctxopt index` to rebuild them"
)


@dataclass(frozen=True)
class Freshness:
    stale: int  # files that differed from the index before this call
    refreshed: bool  # whether they were re-indexed first
    held_back: str = ""  # why a refresh that was asked for could not write, if it could not

    @property
    def left_stale(self) -> int:
        """Files still differing from the index: 0 once refreshed."""
        return 0 if self.refreshed else self.stale


def refresh_index(
    settings: Settings,
    *,
    refresh: bool,
    notify: Notify | None = None,
    reader: IndexReader | None = None,
    known_fresh: bool = False,
) -> tuple[Freshness, IndexReader]:
    """Re-index incrementally when files changed since indexing (unless refresh is False).

    reader: one already open on the last committed index (a long-lived caller keeps it and
    what it has read); None opens one.  known_fresh: the caller knows nothing changed since
    a check found the index fresh (`ctxopt mcp`'s file watcher), so no check runs.  Returns
    the freshness and a reader of the index as it now is.
    """
    if known_fresh and reader is not None:
        check_format(reader.meta(), settings.db_path)
        check_owner(reader.meta(), settings.db_path, settings.root)
        return Freshness(0, False), reader
    shared = is_object_store(settings.db_path)
    before = snapshot.capture(settings, shared=True)  # before anything reads a file
    reader = reader or IndexReader(settings.db_path)
    meta = reader.meta()
    check_format(meta, settings.db_path)  # e.g. an index without stored secrets
    check_owner(meta, settings.db_path, settings.root)  # another repository's --db
    old_chunks = meta.chunker_version != CHUNKER_VERSION
    if old_chunks and notify:
        notify(OLD_CHUNKS_WARNING)
    folder = snapshot.state_folder(settings)
    if before is not None and snapshot.matches(folder, before)[0]:
        return Freshness(0, False), reader  # nothing changed since the index was found fresh
    stale = _stale(settings, reader, shared=shared)
    if stale and shared:  # the caller warns
        return Freshness(stale, False), reader
    if not stale and before is not None and not old_chunks:  # else the warning would stop
        if shared:
            with contextlib.suppress(OSError):
                folder.mkdir(parents=True, exist_ok=True)
        snapshot.save(folder, before)
    if stale and refresh:
        if notify:
            notify(f"refreshing the index: {plural(stale, 'file')} changed since it was built")
        start_parsers(settings)
        try:
            stats = build_index(settings)
        except IndexBusyError:  # a `ctxopt index` is running: read the last committed index
            return Freshness(stale, False, "another `ctxopt index` is running"), reader
        except IndexReadOnlyError:  # a shared or CI-built index: read it as it is
            return Freshness(stale, False, "the index folder is read-only to you"), reader
        if before is not None:
            keep(settings, before, stats, snapshot.current_head(settings))
        return Freshness(stale, True), IndexReader(settings.db_path)
    return Freshness(stale, False), reader


def _stale(settings: Settings, reader: IndexReader, *, shared: bool) -> int:
    """How many files differ from the index; against a shared index the touched files'
    hashes come from the checkout's hash cache (its mtimes are never the builder's)."""
    if not shared:
        return stale_count(stale_plan(settings, reader))
    hashes = HashCache(snapshot.shared_folder(settings))
    stale = stale_count(stale_plan(settings, reader, hashes.hash))
    hashes.save()
    return stale


def build_index(settings: Settings) -> IndexStats:
    """The indexer, imported on first use: a query whose index is fresh never loads it (nor
    the parser workers and writers behind it).  Another call's refresh under way is waited
    for (it is short, and this one then finds little or nothing left to do); a `ctxopt index`
    run of any length is not (IndexBusyError)."""
    from ctxopt.index.build import build_index as build

    try:
        return build(settings, refresh=True)
    except IndexBusyError:
        if is_object_store(settings.db_path) or not held_for_refresh(Path(settings.db_path)):
            raise
        return build(settings, refresh=True, wait=True)
