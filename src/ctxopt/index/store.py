"""The LanceDB store: chunks, files and meta tables under one database folder.

Writes go through ``lancedb``; the hot read paths (staleness check, query,
pack) open the same tables with ``lance`` (pylance), which imports in a
fraction of the time.  Every write batch is idempotent per file (delete the
file's rows, then add), so an interrupted run is repaired by the next one.
"""

from __future__ import annotations

import json
import os
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

from ctxopt.cpu import ensure_lancedb_cpu
from ctxopt.errors import CtxoptError, IndexMismatchError, IndexMissingError
from ctxopt.index import schema
from ctxopt.retrieve.graph import FileGraph
from ctxopt.types import FileRecord, IndexMeta


def quiet_lance() -> None:
    """Keep the Rust side of Lance from logging warnings onto stderr."""
    os.environ.setdefault("LANCE_LOG", "error")
    os.environ.setdefault("RUST_LOG", "error")


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    """A SQL filter `column IN (...)` with safely quoted string values."""
    return f"{column} IN ({', '.join(_quote(v) for v in values)})"


def table_uri(db: str, name: str) -> str:
    return f"{db.rstrip('/')}/{name}.lance"


def index_exists(db: Path) -> bool:
    return (db / f"{schema.META}.lance").is_dir()


class IndexReader:
    """Read-only access through pylance (fast to import)."""

    def __init__(self, db: Path) -> None:
        if not index_exists(db):
            raise IndexMissingError(f"no ctxopt index at {db}; run `ctxopt index` first")
        ensure_lancedb_cpu()
        quiet_lance()
        import lance

        self.db = db
        self._lance = lance
        self._datasets: dict[str, Any] = {}

    def dataset(self, name: str) -> Any:
        if name not in self._datasets:
            self._datasets[name] = self._lance.dataset(table_uri(str(self.db), name))
        return self._datasets[name]

    def meta(self) -> IndexMeta:
        rows = self.dataset(schema.META).to_table().to_pylist()
        values = {row["key"]: json.loads(row["value"]) for row in rows}
        try:
            return IndexMeta(**values)
        except TypeError as exc:
            raise IndexMismatchError(
                f"the index at {self.db} was written by another ctxopt format; "
                "rebuild it with `ctxopt index --full`"
            ) from exc

    def graph(self) -> FileGraph:
        rows = self.dataset(schema.GRAPH).to_table().to_pylist()
        return FileGraph(
            imports={r["path"]: tuple(r["imports"] or ()) for r in rows},
            imported_by={r["path"]: tuple(r["imported_by"] or ()) for r in rows},
            rank={r["path"]: r["rank"] for r in rows},
        )

    def file_records(self) -> dict[str, FileRecord]:
        table = self.dataset(schema.FILES).to_table()
        return {row["path"]: schema.record_from_row(row) for row in table.to_pylist()}


class IndexWriter:
    """Batched writes through lancedb."""

    def __init__(self, db: Path, dimensions: int) -> None:
        ensure_lancedb_cpu()
        quiet_lance()
        try:
            db.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CtxoptError(f"cannot create the index folder {db}: {exc.strerror}") from exc
        import lancedb

        self.db = db
        self.dimensions = dimensions
        self._conn = lancedb.connect(str(db))
        self._tables: dict[str, Any] = {}

    def _table_names(self) -> set[str]:
        return set(self._conn.list_tables().tables)

    def _table(self, name: str) -> Any:
        if name not in self._tables:
            self._tables[name] = self._open_or_create(name)
        return self._tables[name]

    def _open_or_create(self, name: str) -> Any:
        import pyarrow as pa

        existing = self._table_names()
        if name in existing:
            return self._conn.open_table(name)
        if name == schema.CHUNKS:
            table_schema = schema.chunks_schema(self.dimensions)
        elif name == schema.FILES:
            table_schema = schema.files_schema()
        else:
            table_schema = pa.schema([("key", pa.string()), ("value", pa.string())])
        return self._conn.create_table(name, schema=table_schema)

    def drop_all(self) -> None:
        for name in (schema.CHUNKS, schema.FILES, schema.META, schema.GRAPH):
            if name in self._table_names():
                self._conn.drop_table(name)
        self._tables.clear()

    def replace_chunks(self, paths: Sequence[str], rows: Any) -> None:
        """Delete the chunks of paths, then add rows (an Arrow table): idempotent per file."""
        table = self._table(schema.CHUNKS)
        for start in range(0, len(paths), 500):
            batch = paths[start : start + 500]
            if batch:
                table.delete(in_list("path", batch))
        if rows is not None and rows.num_rows:
            table.add(rows)

    def upsert_files(self, records: Sequence[FileRecord], deleted: Sequence[str]) -> None:
        table = self._table(schema.FILES)
        for start in range(0, len(deleted), 500):
            table.delete(in_list("path", deleted[start : start + 500]))
        if records:
            (
                table.merge_insert("path")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(schema.file_rows(records))
            )

    def write_meta(self, meta: IndexMeta) -> None:
        import pyarrow as pa

        table = self._table(schema.META)
        values = {k: json.dumps(v) for k, v in asdict(meta).items()}
        rows = pa.table({"key": list(values), "value": list(values.values())})
        table.merge_insert("key").when_matched_update_all().when_not_matched_insert_all().execute(
            rows
        )

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
        self._conn.create_table(schema.GRAPH, data=rows, mode="overwrite")

    def finish(self, *, rebuild_fts: bool) -> None:
        """Bring the full-text index up to date, compact, and drop old versions."""
        chunks = self._table(schema.CHUNKS)
        has_fts = any(idx.index_type == "FTS" for idx in chunks.list_indices())
        if (rebuild_fts or not has_fts) and chunks.count_rows():
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*create_fts_index.*")
                chunks.create_fts_index("search", replace=True, with_position=False)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*cleanup_older_than.*")
            for name in sorted(self._table_names()):
                self._table(name).optimize(cleanup_older_than=timedelta(seconds=0))


def now() -> float:
    return time.time()
