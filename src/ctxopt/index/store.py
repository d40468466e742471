"""The LanceDB store: chunks, files and meta tables under one database folder.

Writes go through ``lancedb``; the hot read paths (staleness check, query,
pack) open the same tables with ``lance`` (pylance), which imports in a
fraction of the time.  Every write batch is idempotent per file (delete the
file's rows, then add), so an interrupted run is repaired by the next one.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

from ctxopt.config.environment import LANCE, quiet_library
from ctxopt.config.paths import is_object_store
from ctxopt.errors import (
    CtxoptError,
    IndexIncompleteError,
    IndexMismatchError,
    IndexMissingError,
)
from ctxopt.index import schema
from ctxopt.index.commit import (
    TABLES,
    IndexState,
    corrupt,
    incomplete_message,
    index_state,
    read_commit,
    write_commit,
)
from ctxopt.index.cpu import ensure_lancedb_cpu
from ctxopt.index.graph import FileGraph
from ctxopt.index.lock import LOCK_NAME
from ctxopt.index.scope import Scope
from ctxopt.types import FileRecord, IndexMeta


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    """A SQL filter `column IN (...)` with safely quoted string values."""
    return f"{column} IN ({', '.join(_quote(v) for v in values)})"


def table_uri(db: str, name: str) -> str:
    return f"{db.rstrip('/')}/{name}.lance"


def index_exists(db: Path) -> bool:
    return (db / f"{schema.META}.lance").is_dir()


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


def make_index_folder(db: Path) -> None:
    """Create the index folder (ignored by git when it is ctxopt's own)."""
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

    def __init__(self, db: Path, *, committed: bool = True) -> None:
        state = index_state(db)
        if state is IndexState.MISSING:
            raise IndexMissingError(f"no ctxopt index at {db}; run `ctxopt index` first")
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
        self._versions: dict[str, int] = commit.versions if commit else {}
        if commit:
            for name in TABLES:
                check_files(self.dataset(name), self.db, name)

    def dataset(self, name: str) -> Any:
        if name not in self._datasets:
            try:
                self._datasets[name] = self._lance.dataset(
                    table_uri(str(self.db), name), version=self._versions.get(name)
                )
            except LANCE_ERRORS as exc:
                raise corrupt(self.db, f"the {name} table cannot be opened") from exc
        return self._datasets[name]

    def _rows(self, name: str) -> list[dict[str, Any]]:
        try:
            rows: list[dict[str, Any]] = self.dataset(name).to_table().to_pylist()
        except LANCE_ERRORS as exc:
            raise corrupt(self.db, f"the {name} table cannot be read") from exc
        return rows

    def meta(self) -> IndexMeta:
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
        rows = self._rows(schema.GRAPH)
        return FileGraph(
            imports={r["path"]: tuple(r["imports"] or ()) for r in rows},
            imported_by={r["path"]: tuple(r["imported_by"] or ()) for r in rows},
            rank={r["path"]: r["rank"] for r in rows},
        )

    def file_records(self) -> dict[str, FileRecord]:
        """Every file's record (read once per reader)."""
        if self._records is None:
            rows = self._rows(schema.FILES)
            self._records = {row["path"]: schema.record_from_row(row) for row in rows}
        return self._records


class IndexWriter:
    """Batched writes with pylance; LanceDB builds the full-text index on full builds.

    Incremental runs never import ``lancedb`` (its import alone takes seconds): the
    tables are plain Lance datasets in a LanceDB database folder, so pylance can
    append, delete, merge and fold new rows into the existing full-text index.
    """

    COMPACT_FRAGMENTS = 8

    def __init__(self, db: Path, dimensions: int) -> None:
        ensure_lancedb_cpu()
        quiet_library(LANCE)
        make_index_folder(db)
        import lance

        self._lance = lance
        self.db = db
        self.dimensions = dimensions

    def _uri(self, name: str) -> str:
        return table_uri(str(self.db), name)

    def _schema(self, name: str) -> Any:
        import pyarrow as pa

        if name == schema.CHUNKS:
            return schema.chunks_schema(self.dimensions)
        if name == schema.FILES:
            return schema.files_schema()
        if name == schema.GRAPH:
            return schema.graph_schema()
        return pa.schema([("key", pa.string()), ("value", pa.string())])

    def _dataset(self, name: str) -> Any:
        if not Path(self._uri(name)).is_dir():
            empty = self._schema(name).empty_table()
            return self._lance.write_dataset(empty, self._uri(name), mode="create")
        return self._lance.dataset(self._uri(name))

    def _write(self, name: str, rows: Any, mode: str) -> None:
        self._lance.write_dataset(rows, self._uri(name), schema=self._schema(name), mode=mode)

    def drop_all(self) -> None:
        """Start from empty tables.  Over a committed index they are new versions (the
        committed ones stay readable until this run commits); otherwise the folders go."""
        if read_commit(self.db) is None:
            for name in TABLES:
                shutil.rmtree(self._uri(name), ignore_errors=True)
            return
        for name in TABLES:
            self._lance.write_dataset(
                self._schema(name).empty_table(), self._uri(name), mode="overwrite"
            )

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

    def finish(self, *, rebuild_fts: bool, scope: Scope | None = None) -> None:
        """Bring the full-text index up to date, compact, commit, and drop old versions.

        The commit marker is written last: until then readers see the previous commit
        and an interrupted run leaves it as it was."""
        chunks = self._dataset(schema.CHUNKS)
        fts = next(
            (i.name for i in chunks.describe_indices() if "Inverted" in str(i.type_url)), None
        )
        if (rebuild_fts or fts is None) and chunks.count_rows():
            self._build_fts()
        elif fts is not None:
            chunks.optimize.optimize_indices()
            chunks = self._dataset(schema.CHUNKS)
            if stale_share(chunks, fts) > STALE_FTS_SHARE:
                self._build_fts()
        versions: dict[str, int] = {}
        for name in TABLES:
            dataset = self._dataset(name)
            if len(dataset.get_fragments()) > self.COMPACT_FRAGMENTS:
                dataset.optimize.compact_files()
            versions[name] = self._lance.dataset(self._uri(name)).version
        write_commit(self.db, versions, scope)
        for name in TABLES:  # we hold the lock: files of killed runs can go too
            self._lance.dataset(self._uri(name)).cleanup_old_versions(
                older_than=timedelta(seconds=0), delete_unverified=True
            )

    def _build_fts(self) -> None:
        """A fresh full-text index over names, paths and code, built through LanceDB."""
        import lancedb

        table = lancedb.connect(str(self.db)).open_table(schema.CHUNKS)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*create_fts_index.*")
            table.create_fts_index("search", replace=True, with_position=False)


def check_files(dataset: Any, db: Path, name: str) -> None:
    """Raise IndexCorruptError when a data file the version names is missing or truncated
    (a stat per file; Lance itself would only notice when a query reads it)."""
    root = Path(table_uri(str(db), name)) / "data"
    for fragment in dataset.get_fragments():
        for data_file in fragment.data_files():
            expected = getattr(data_file, "file_size_bytes", None)
            try:
                size = (root / data_file.path).stat().st_size
            except OSError as exc:
                raise corrupt(db, f"a data file of the {name} table is missing") from exc
            if expected and size != expected:
                raise corrupt(db, f"a data file of the {name} table is truncated")


STALE_FTS_SHARE = 0.05  # rebuild the full-text index once this share of its documents is stale


def stale_share(chunks: Any, index_name: str) -> float:
    """The share of the full-text index's documents that are no longer rows (replaced or
    deleted chunks).  An index updated in place keeps counting them in its BM25 statistics,
    so the same files would rank differently than after a fresh build."""
    try:
        stats = chunks.stats.index_stats(index_name)
    except (ValueError, RuntimeError, OSError, KeyError):  # no stats: assume fresh
        return 0.0
    documents = sum(int(s.get("num_docs", 0)) for s in stats.get("segments", []))
    rows = chunks.count_rows()
    return max(0, documents - rows) / documents if documents else 0.0


def now() -> float:
    return time.time()
