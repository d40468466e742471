"""The LanceDB store: chunks, files and meta tables under one database folder.

Reads and writes go through ``lance`` (pylance), which imports in a fraction of
``lancedb``'s time; the tables and the full-text index are the ones LanceDB makes, in a
LanceDB database folder, so LanceDB opens and searches them too.  Every write batch is
idempotent per file (delete the file's rows, then add), so an interrupted run is repaired by
the next one.
The database is a local folder or a prefix on object storage (location.py): every
dataset is opened with that location's storage options.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

from ctxopt import interrupts
from ctxopt.config.environment import LANCE, quiet_library
from ctxopt.config.paths import DbLocation, is_object_store
from ctxopt.errors import (
    CtxoptError,
    IndexIncompleteError,
    IndexMismatchError,
    IndexMissingError,
)
from ctxopt.index import schema
from ctxopt.index.commit import (
    REQUIRED,
    TABLES,
    IndexState,
    corrupt,
    incomplete_message,
    index_command,
    index_state,
    read_commit,
    write_commit,
)
from ctxopt.index.cpu import ensure_lancedb_cpu
from ctxopt.index.graph import FileGraph
from ctxopt.index.integrity import broken_indices, check_files, index_damage
from ctxopt.index.location import locate
from ctxopt.index.lock import LOCK_NAME, building_message, running_builder
from ctxopt.index.scope import Scope
from ctxopt.types import FileRecord, IndexMeta, PastCommit


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    """A SQL filter `column IN (...)` with safely quoted string values."""
    return f"{column} IN ({', '.join(_quote(v) for v in values)})"


def index_exists(db: DbLocation) -> bool:
    return locate(db).has_table(schema.META)


LANCE_ERRORS = (OSError, ValueError, RuntimeError)  # what pylance raises on damaged tables


GITIGNORE = ".gitignore"
GITIGNORE_TEXT = "# Created by ctxopt: the index folder ignores itself.\n*\n"


def ignore_self(db: Path | str) -> None:
    """Write db/.gitignore ("*") so the index never shows in `git status`, as pytest's and
    ruff's caches do.  Local folders only; an existing file is left as the user made it."""
    if is_object_store(db):
        return
    target = Path(db) / GITIGNORE
    if target.exists():
        return
    with contextlib.suppress(OSError):  # a read-only folder: the index works without it
        target.write_text(GITIGNORE_TEXT, encoding="utf-8")


def _ours(db: Path) -> bool:
    """Whether db is a folder ctxopt may mark ignored: new, empty, or already an index.
    A --db pointing at an existing folder of the user's must not hide its files from git."""
    try:
        return (
            not db.is_dir()
            or all(entry.name == LOCK_NAME for entry in db.iterdir())
            or index_exists(db)
        )
    except OSError:
        return False


def make_index_folder(db: DbLocation) -> None:
    """Create the index folder (ignored by git when it is ctxopt's own); on object storage,
    where prefixes need no creating, check that the bucket can be reached."""
    if is_object_store(db):
        locate(db).probe()
        return
    db = Path(db)
    ours = _ours(db)
    try:
        db.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CtxoptError(f"cannot create the index folder {db}: {exc.strerror}") from exc
    if ours:
        ignore_self(db)


class IndexReader:
    """Read-only access through pylance (fast to import).

    By default the reader sees the last committed index: each table at the version the
    commit marker names, whatever a running `ctxopt index` is writing.  An index without a
    marker is refused (IndexIncompleteError), a damaged one too (IndexCorruptError, checked
    on open).  ``committed=False`` is the writer's view: the tables' latest versions.
    """

    def __init__(self, db: DbLocation, *, committed: bool = True) -> None:
        self.location = locate(db)
        self.location.probe()
        state = index_state(db)
        if state is IndexState.MISSING or (committed and state is IndexState.INCOMPLETE):
            builder = running_builder(db)
            if builder is not None:  # a first run under way: neither missing nor interrupted
                raise IndexIncompleteError(building_message(db, builder))
        if state is IndexState.MISSING:
            raise IndexMissingError(f"no ctxopt index at {db}; run `{index_command(db)}` first")
        if committed and state is IndexState.INCOMPLETE:
            raise IndexIncompleteError(incomplete_message(db))
        ensure_lancedb_cpu()
        quiet_library(LANCE)
        import lance

        self.db = db
        self._lance = lance
        self._datasets: dict[str, Any] = {}
        self._records: dict[str, FileRecord] | None = None
        commit = read_commit(db) if committed else None
        self.commit = commit  # what this reader sees; a later commit needs a new reader
        self._versions: dict[str, int] = commit.versions if commit else {}
        self._meta: IndexMeta | None = None
        self._graph: FileGraph | None = None
        self._history: tuple[PastCommit, ...] | None = None
        if commit:
            for name in REQUIRED:  # the history table is checked when it is read
                check_files(self.dataset(name), self.location, name)
            broken = broken_indices(self.dataset(schema.CHUNKS), self.location, schema.CHUNKS)
            if broken:
                raise index_damage(db, broken)

    def dataset(self, name: str) -> Any:
        if name not in self._datasets:
            before = interrupts.count()
            try:
                self._datasets[name] = self._lance.dataset(
                    self.location.uri(name),
                    version=self._versions.get(name),
                    storage_options=self.location.options,
                )
            except LANCE_ERRORS as exc:
                raise damaged(self.db, f"the {name} table cannot be opened", before) from exc
        return self._datasets[name]

    def _rows(self, name: str) -> list[dict[str, Any]]:
        before = interrupts.count()
        try:
            rows: list[dict[str, Any]] = self.dataset(name).to_table().to_pylist()
        except LANCE_ERRORS as exc:
            raise damaged(self.db, f"the {name} table cannot be read", before) from exc
        return rows

    def meta(self) -> IndexMeta:
        """The index's meta record (read once per reader, as the tables it opens are)."""
        if self._meta is None:
            self._meta = self._read_meta()
        return self._meta

    def _read_meta(self) -> IndexMeta:
        rows = self._rows(schema.META)
        values = {row["key"]: json.loads(row["value"]) for row in rows}
        try:
            return IndexMeta(**values)
        except TypeError as exc:
            raise IndexMismatchError(
                f"the index at {self.db} was written by another ctxopt format; "
                "rebuild it with `ctxopt index --full`"
            ) from exc

    def graph(self) -> FileGraph:
        """The file graph (read once per reader)."""
        if self._graph is None:
            self._graph = self._read_graph()
        return self._graph

    def _read_graph(self) -> FileGraph:
        rows = self._rows(schema.GRAPH)
        return FileGraph(
            imports={r["path"]: tuple(r["imports"] or ()) for r in rows},
            imported_by={r["path"]: tuple(r["imported_by"] or ()) for r in rows},
            rank={r["path"]: r["rank"] for r in rows},
        )

    def past_commits(self) -> tuple[PastCommit, ...]:
        """The newest commits' messages and modified files, newest first (read once per
        reader); none for an index written before they were kept."""
        if self._history is None:
            kept = (
                schema.HISTORY in self._versions
                if self.commit is not None
                else self.location.has_table(schema.HISTORY)
            )
            if kept and self.commit is not None:
                check_files(self.dataset(schema.HISTORY), self.location, schema.HISTORY)
            rows = self._rows(schema.HISTORY) if kept else []
            self._history = tuple(schema.commit_from_row(row) for row in rows)
        return self._history

    def file_records(self) -> dict[str, FileRecord]:
        """Every file's record (read once per reader)."""
        if self._records is None:
            rows = self._rows(schema.FILES)
            self._records = {row["path"]: schema.record_from_row(row) for row in rows}
        return self._records


class IndexWriter:
    """Batched writes with pylance, which also builds the full-text index, folds new rows
    into it and rebuilds it once too much of it is stale.  ``lancedb`` is never imported (its
    import alone takes seconds): the tables are plain Lance datasets in a LanceDB database
    folder."""

    COMPACT_FRAGMENTS = 8  # small fragments that make a table worth compacting

    def __init__(self, db: DbLocation, dimensions: int) -> None:
        ensure_lancedb_cpu()
        quiet_library(LANCE)
        make_index_folder(db)
        import lance

        self._lance = lance
        self.db = db
        self.location = locate(db)
        self.dimensions = dimensions

    def _uri(self, name: str) -> str:
        return self.location.uri(name)

    def _open(self, name: str) -> Any:
        return self._lance.dataset(self._uri(name), storage_options=self.location.options)

    def _schema(self, name: str) -> Any:
        import pyarrow as pa

        if name == schema.CHUNKS:
            return schema.chunks_schema(self.dimensions)
        if name == schema.FILES:
            return schema.files_schema()
        if name == schema.GRAPH:
            return schema.graph_schema()
        if name == schema.HISTORY:
            return schema.history_schema()
        return pa.schema([("key", pa.string()), ("value", pa.string())])

    def _dataset(self, name: str) -> Any:
        if not self.location.has_table(name):
            empty = self._schema(name).empty_table()
            return self._lance.write_dataset(
                empty, self._uri(name), mode="create", storage_options=self.location.options
            )
        return self._open(name)

    def _write(self, name: str, rows: Any, mode: str) -> None:
        self._lance.write_dataset(
            rows,
            self._uri(name),
            schema=self._schema(name),
            mode=mode,
            storage_options=self.location.options,
        )

    def drop_all(self) -> None:
        """Start from empty tables.  Over a committed index they are new versions (the
        committed ones stay readable until this run commits); otherwise the folders go."""
        if read_commit(self.db) is None:
            for name in TABLES:
                self.location.remove_table(name)
            return
        for name in TABLES:
            self._write(name, self._schema(name).empty_table(), "overwrite")

    def _delete_paths(self, name: str, paths: Sequence[str]) -> None:
        dataset = self._dataset(name)
        for start in range(0, len(paths), 500):
            dataset.delete(in_list("path", paths[start : start + 500]))

    def replace_chunks(self, paths: Sequence[str], rows: Any) -> None:
        """Delete the chunks of paths, then add rows (an Arrow table): idempotent per file."""
        self._delete_paths(schema.CHUNKS, paths)
        if rows is not None and rows.num_rows:
            self._write(schema.CHUNKS, rows, "append")

    def upsert_files(self, records: Sequence[FileRecord], deleted: Sequence[str]) -> None:
        if deleted:
            self._delete_paths(schema.FILES, deleted)
        if records:
            (
                self._dataset(schema.FILES)
                .merge_insert("path")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(schema.file_rows(records))
            )

    def write_meta(self, meta: IndexMeta) -> None:
        import pyarrow as pa

        values = {k: json.dumps(v) for k, v in asdict(meta).items()}
        rows = pa.table({"key": list(values), "value": list(values.values())})
        self._write(schema.META, rows, "overwrite")

    def write_graph(self, graph: FileGraph) -> None:
        """Replace the graph table: resolved imports, importers and rank of every file."""
        import pyarrow as pa

        paths = sorted(graph.rank)
        rows = pa.table(
            {
                "path": paths,
                "rank": [graph.rank[p] for p in paths],
                "imports": [list(graph.imports.get(p, ())) for p in paths],
                "imported_by": [list(graph.imported_by.get(p, ())) for p in paths],
            },
            schema=schema.graph_schema(),
        )
        self._write(schema.GRAPH, rows, "overwrite")

    def write_history(self, commits: Sequence[PastCommit]) -> None:
        """Replace the history table: the newest commits' messages and modified files."""
        self._write(schema.HISTORY, schema.history_rows(commits), "overwrite")

    def finish(self, *, rebuild_fts: bool, scope: Scope | None = None) -> None:
        """Bring the full-text index up to date, compact, commit, and drop old versions."""
        self.update_fts(rebuild=rebuild_fts)
        self.commit(scope)

    def update_fts(self, *, rebuild: bool) -> None:
        """Build the full-text index (rebuild, or none yet), or fold new rows into it."""
        rebuild_fts = rebuild
        chunks = self._dataset(schema.CHUNKS)
        fts = next(
            (i.name for i in chunks.describe_indices() if "Inverted" in str(i.type_url)), None
        )
        if (rebuild_fts or fts is None) and chunks.count_rows():
            self._build_fts()
        elif fts is not None:
            if unindexed_rows(chunks, fts) > FTS_MERGE_ROWS:
                chunks.optimize.optimize_indices()
                chunks = self._dataset(schema.CHUNKS)
            if stale_share(chunks, fts) > STALE_FTS_SHARE:
                self._build_fts()

    def commit(self, scope: Scope | None = None) -> None:
        """Compact where updates left many small fragments, commit, drop old versions.

        The commit marker is written last: until then readers see the previous commit
        and an interrupted run leaves it as it was.  Only small fragments (an update's
        leftovers) are merged: a full build's write batches are already of a good size,
        and rewriting them cost about 10 s at 10M lines for no faster reads."""
        versions: dict[str, int] = {}
        for name in TABLES:
            dataset = self._dataset(name)
            small = sum(
                1
                for fragment in dataset.get_fragments()
                if fragment.metadata.physical_rows < SMALL_FRAGMENT_ROWS
            )
            if small > self.COMPACT_FRAGMENTS:
                dataset.optimize.compact_files(target_rows_per_fragment=SMALL_FRAGMENT_ROWS)
            versions[name] = self._open(name).version
        write_commit(self.db, versions, scope)
        for name in TABLES:  # we hold the lock: files of killed runs can go too
            self._open(name).cleanup_old_versions(
                older_than=timedelta(seconds=0), delete_unverified=True
            )

    def _build_fts(self) -> None:
        """A fresh full-text index over names, paths and code, built by pylance: the Lance
        version that reads it, without importing ``lancedb`` (1.5 CPU s)."""
        self._dataset(schema.CHUNKS).create_scalar_index(
            "search", "INVERTED", name=FTS_INDEX_NAME, replace=True, **FTS_SETTINGS
        )


def damaged(db: DbLocation, detail: str, before: int) -> BaseException:
    """The error for a table Lance could not open or read: the index is damaged, unless Ctrl-C
    came meanwhile (pyarrow reports a KeyboardInterrupt raised in a read as ArrowInvalid)."""
    if interrupts.since(before):
        return KeyboardInterrupt()
    return corrupt(db, detail)


FTS_INDEX_NAME = "search_idx"  # the name LanceDB gives it, so either can open the table
# LanceDB's defaults for its native full-text index: words of up to 40 characters, lower-cased,
# ASCII-folded, English stop words removed, stemmed; no positions (no phrase queries).
FTS_SETTINGS: dict[str, Any] = {
    "with_position": False,
    "base_tokenizer": "simple",
    "language": "English",
    "max_token_length": 40,
    "lower_case": True,
    "stem": True,
    "remove_stop_words": True,
    "ascii_folding": True,
}
SMALL_FRAGMENT_ROWS = 4_096  # below this a fragment is an update's leftover (a build writes 8,192)
STALE_FTS_SHARE = 0.05  # rebuild the full-text index once this share of its documents is stale
# Rows not yet in the full-text index are searched directly (Lance scores them with the
# index's own statistics: the same scores as after a merge); merging them costs about 0.6 s
# of CPU on a 34,000-chunk index whatever their number, so it waits until there are this many.
FTS_MERGE_ROWS = 1000


def _index_stats(chunks: Any, index_name: str) -> dict[str, Any]:
    try:
        stats = chunks.stats.index_stats(index_name)
    except (ValueError, RuntimeError, OSError, KeyError):  # no stats: assume fresh
        return {}
    return stats if isinstance(stats, dict) else {}


def unindexed_rows(chunks: Any, index_name: str) -> int:
    """Rows of chunks that the full-text index does not cover yet (added since its merge)."""
    return int(_index_stats(chunks, index_name).get("num_unindexed_rows", 0) or 0)


def stale_share(chunks: Any, index_name: str) -> float:
    """The share of the full-text index's documents that are no longer rows (replaced or
    deleted chunks).  An index updated in place keeps counting them in its BM25 statistics,
    so the same files would rank differently than after a fresh build."""
    stats = _index_stats(chunks, index_name)
    documents = sum(int(s.get("num_docs", 0)) for s in stats.get("segments", []))
    rows = chunks.count_rows() - int(stats.get("num_unindexed_rows", 0) or 0)
    return max(0, documents - rows) / documents if documents else 0.0


def now() -> float:
    return time.time()
