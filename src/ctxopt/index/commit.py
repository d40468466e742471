"""The commit marker: the one file that says an index is complete, and which table versions
make it up.

Every table is a Lance dataset whose writes each commit a new version.  A run writes many
versions (chunks, then files, then meta, graph, the full-text index and compaction); only
when all of them are written does it replace ``committed.json`` (on a local disk: write to a
temporary file, fsync, rename; on object storage: one put, which is atomic there).  Readers
open each table at the version the marker names, so a query during indexing reads the last
complete index, and a killed run leaves the marker as it was.  No marker but tables present
means a run was interrupted before its first commit: the index is incomplete.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import Enum

from ctxopt.config.paths import DbLocation, is_object_store
from ctxopt.errors import IndexCorruptError
from ctxopt.index import schema
from ctxopt.index.location import locate
from ctxopt.index.scope import Scope

MARKER = "committed.json"
MARKER_FORMAT = 1
REQUIRED = (schema.CHUNKS, schema.FILES, schema.META, schema.GRAPH)
TABLES = (*REQUIRED, schema.HISTORY)  # a marker from before the history table lacks it


class IndexState(Enum):
    MISSING = "missing"  # no tables at all
    INCOMPLETE = "incomplete"  # tables but no marker: a run that never finished
    COMPLETE = "complete"  # a marker naming a version of every table


@dataclass(frozen=True)
class Commit:
    versions: dict[str, int]  # table name -> Lance version (every required table)
    committed_at: float
    scope: Scope | None = None  # the discovery options of the run (None: an older marker)


def has_tables(db: DbLocation) -> bool:
    location = locate(db)
    return any(location.has_table(name) for name in TABLES)


def read_commit(db: DbLocation) -> Commit | None:
    """The marker's commit; None when there is none; IndexCorruptError when it is unreadable
    (StorageError when its object store cannot be reached)."""
    try:
        raw = locate(db).read_text(MARKER)
    except (OSError, UnicodeDecodeError) as exc:
        raise corrupt(db, f"cannot read {MARKER}: {exc}") from exc
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        named = data["versions"]
        versions = {name: int(named[name]) for name in TABLES if name in REQUIRED or name in named}
        if int(data["format"]) != MARKER_FORMAT:
            raise ValueError(f"marker format {data['format']}")
        scope = Scope.from_json(data["scope"]) if "scope" in data else None
        return Commit(versions, float(data["committed_at"]), scope)
    except (ValueError, KeyError, TypeError) as exc:
        raise corrupt(db, f"{MARKER} is not a ctxopt commit marker") from exc


def index_state(db: DbLocation) -> IndexState:
    """Cheap: looks at the marker and table names only (no dataset is opened)."""
    if locate(db).exists(MARKER):
        return IndexState.COMPLETE
    return IndexState.INCOMPLETE if has_tables(db) else IndexState.MISSING


def write_commit(db: DbLocation, versions: dict[str, int], scope: Scope | None = None) -> Commit:
    """Atomically replace the marker: the index is now these versions, built with scope."""
    commit = Commit({name: versions[name] for name in TABLES}, time.time(), scope)
    payload: dict[str, object] = {
        "format": MARKER_FORMAT,
        "versions": commit.versions,
        "committed_at": commit.committed_at,
    }
    if scope is not None:
        payload["scope"] = scope.to_json()
    locate(db).write_text(MARKER, json.dumps(payload))
    return commit


def remove_commit(db: DbLocation) -> None:
    """Drop the marker (the tables are about to be deleted): the index is no longer complete."""
    locate(db).delete(MARKER)


def corrupt(db: DbLocation, detail: str) -> IndexCorruptError:
    return IndexCorruptError(
        f"the index at {db} is damaged ({detail}); rebuild it with `ctxopt index --full`"
    )


def index_command(db: DbLocation) -> str:
    """The command that builds the index at db (an object store is never the default)."""
    return f"ctxopt index --db {db}" if is_object_store(db) else "ctxopt index"


def incomplete_message(db: DbLocation) -> str:
    return (
        f"the index at {db} is incomplete (an interrupted run); "
        f"run `{index_command(db)}` to finish it"
    )


class AfterInterrupt(Enum):
    """What an interrupted run left behind, compared with the commit it started from."""

    UNCHANGED = "unchanged"  # the previous complete index, as it was
    COMMITTED = "committed"  # the run had committed before the interruption
    INCOMPLETE = "incomplete"  # tables without a commit: `ctxopt index` finishes them
    NOTHING = "nothing"  # no index at all


def after_interrupt(db: DbLocation, before: Commit | None) -> AfterInterrupt:
    try:
        now = read_commit(db)
    except IndexCorruptError:
        now = None
    if now is not None:
        return AfterInterrupt.UNCHANGED if now == before else AfterInterrupt.COMMITTED
    return AfterInterrupt.INCOMPLETE if has_tables(db) else AfterInterrupt.NOTHING


def safe_read_commit(db: DbLocation) -> Commit | None:
    try:
        return read_commit(db)
    except IndexCorruptError:
        return None
