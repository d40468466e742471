"""How far the index lags behind the working tree (read-only, no LanceDB import)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ctxopt.config.settings import Settings
from ctxopt.discover import walk as discovery
from ctxopt.index.commit import safe_read_commit
from ctxopt.index.file_jobs import file_hash
from ctxopt.index.plan import plan_refresh, resolve_touched
from ctxopt.index.scope import with_stored_scope
from ctxopt.index.store import IndexReader
from ctxopt.types import Discovery, RefreshPlan, SourceFile


def scoped_settings(settings: Settings) -> Settings:
    """settings with the include, exclude and size limit the index was built with, where
    no flag, variable or config file sets them (see index/scope.py)."""
    commit = safe_read_commit(settings.db_path)
    return with_stored_scope(settings, commit.scope if commit else None)


def discover_files(settings: Settings) -> Discovery:
    """The files an index run of settings.root covers (the index folder left out), within
    the index's scope."""
    settings = scoped_settings(settings)
    return discovery.discover(
        settings.root,
        include=settings.include,
        exclude=settings.exclude,
        max_file_bytes=settings.max_file_bytes,
        extra_ignored_dirs=[db] if isinstance(db := settings.db_path, Path) else [],
    )


def _read_hash(source: SourceFile) -> str:
    return file_hash(source.abs_path)


def stale_plan(
    settings: Settings,
    reader: IndexReader,
    hash_of: Callable[[SourceFile], str] = _read_hash,
) -> RefreshPlan:
    """The refresh an index run would do now; empty when the index is fresh.  hash_of gives
    a touched file's content hash (default: read it; hash_cache.HashCache.hash remembers)."""
    found = discover_files(settings)
    stored = reader.file_records()
    plan = plan_refresh(found.files, stored)
    hashes = {s.path: hash_of(s) for s in plan.touched}
    resolved, _same = resolve_touched(plan, hashes, stored)
    return resolved


def stale_count(plan: RefreshPlan) -> int:
    return len(plan.added) + len(plan.changed) + len(plan.deleted)
