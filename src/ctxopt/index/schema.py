"""Table schemas of the index and the conversion of records to Arrow rows."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ctxopt.errors import IndexMismatchError
from ctxopt.terms import expand_identifiers, split_identifier
from ctxopt.types import Chunk, FileRecord, IndexMeta, PastCommit, SecretSpan

if TYPE_CHECKING:
    import pyarrow as pa

FORMAT_VERSION = 2  # 2: chunks carry the secrets found in them
CHUNKS = "chunks"
GRAPH = "graph"
FILES = "files"
META = "meta"
HISTORY = "history"  # the newest commits' messages and files (an index from before has none)


def search_text(chunk: Chunk) -> str:
    """What full-text search sees: path, names, and the code with identifiers split."""
    path_words, path_parts = _path_terms(chunk.path)
    name = chunk.qualified_name
    head = f"{path_words} {name.replace('.', ' ')} {' '.join(split_identifier(name))} {path_parts}"
    return f"{head}\n{chunk.text}\n{expand_identifiers(chunk.text)}"


@functools.lru_cache(maxsize=256)
def _path_terms(path: str) -> tuple[str, str]:
    """A path's folders and name as words, and its identifier parts (a file's chunks share
    them)."""
    return path.replace("/", " "), " ".join(split_identifier(path))


def embed_text(chunk: Chunk) -> str:
    """What the embedder sees for a chunk."""
    return (
        f"{chunk.path} {chunk.kind.value} {chunk.qualified_name}\n"
        f"{chunk.signature}\n{chunk.docstring}\n{chunk.text}"
    )


def chunks_schema(dimensions: int) -> pa.Schema:
    import pyarrow as pa

    strings = pa.list_(pa.string())
    return pa.schema(
        [
            ("id", pa.string()),
            ("path", pa.string()),
            ("language", pa.string()),
            ("kind", pa.string()),
            ("name", pa.string()),
            ("qualified_name", pa.string()),
            ("signature", pa.string()),
            ("docstring", pa.string()),
            ("start_line", pa.int32()),
            ("end_line", pa.int32()),
            ("text", pa.string()),
            ("tokens", pa.int32()),
            ("content_hash", pa.string()),
            ("imports", strings),
            ("defines", strings),
            ("references", strings),
            ("complexity", pa.int32()),
            ("parent", pa.string()),
            ("summary", pa.bool_()),
            ("commit_time", pa.int64()),
            ("secrets", pa.list_(secret_type())),
            ("search", pa.string()),
            ("vector", pa.list_(pa.float32(), dimensions)),
        ]
    )


def secret_type() -> pa.DataType:
    """A stored secret span: offsets in the chunk's text and the kind's name."""
    import pyarrow as pa

    return pa.struct([("start", pa.int32()), ("end", pa.int32()), ("kind", pa.string())])


def secrets_from_row(value: Sequence[Mapping[str, Any]] | None) -> tuple[SecretSpan, ...]:
    """The spans of a chunk row's secrets column."""
    return tuple(SecretSpan(int(r["start"]), int(r["end"]), str(r["kind"])) for r in value or ())


def check_format(meta: IndexMeta, db: object) -> None:
    """Raise IndexMismatchError for an index written in another format (rebuild it)."""
    if meta.format_version != FORMAT_VERSION:
        raise IndexMismatchError(
            f"the index at {db} was written by another ctxopt version "
            f"(format {meta.format_version}); rebuild it with `ctxopt index --full`"
        )


def files_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            ("path", pa.string()),
            ("content_hash", pa.string()),
            ("size", pa.int64()),
            ("mtime_ns", pa.int64()),
            ("language", pa.string()),
            ("tokens", pa.int64()),
            ("chunks", pa.int32()),
            ("commit_time", pa.int64()),
            ("imports", pa.list_(pa.string())),
        ]
    )


def graph_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            ("path", pa.string()),
            ("rank", pa.float64()),
            ("imports", pa.list_(pa.string())),
            ("imported_by", pa.list_(pa.string())),
        ]
    )


def chunk_rows(
    chunks: Sequence[Chunk],
    vectors: object,
    dimensions: int,
    search: Sequence[str] | None = None,
    commit_times: Sequence[int] | None = None,
) -> pa.Table:
    """Arrow table of chunks with their vectors (an (n, dimensions) float32 array) and their
    full-text column (search_text of each chunk unless given, as workers make it); with
    commit_times, those stand for the chunks' own commit_time (one per chunk)."""
    import numpy as np
    import pyarrow as pa

    columns: dict[str, object] = {}
    for name in chunks_schema(dimensions).names:
        if name not in _DERIVED:  # one column at a time, the attribute read in C
            columns[name] = list(map(attrgetter(name), chunks))
    columns["kind"] = [chunk.kind.value for chunk in chunks]
    columns["secrets"] = [
        [{"start": s.start, "end": s.end, "kind": s.kind} for s in chunk.secrets]
        if chunk.secrets
        else []
        for chunk in chunks
    ]
    if commit_times is not None:
        columns["commit_time"] = list(commit_times)
    columns["search"] = list(search) if search is not None else [search_text(c) for c in chunks]
    flat = pa.array(np.asarray(vectors, dtype=np.float32).reshape(-1))
    columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dimensions)
    return pa.table(columns, schema=chunks_schema(dimensions))


# columns made otherwise than by reading the chunk's attribute as it is (tuple fields are
# read as they are: Arrow takes a tuple for a list value)
_DERIVED = frozenset({"kind", "secrets", "search", "vector"})


def file_rows(records: Sequence[FileRecord]) -> pa.Table:
    import pyarrow as pa

    schema = files_schema()
    columns = {name: [getattr(r, name) for r in records] for name in schema.names}
    columns["imports"] = [list(r.imports) for r in records]
    return pa.table(columns, schema=schema)


@functools.cache
def file_columns() -> tuple[str, ...]:
    """The files table's column names (built once: a schema per row cost a query 50 ms)."""
    return tuple(files_schema().names)


def record_from_row(row: dict[str, object]) -> FileRecord:
    values = {k: row[k] for k in file_columns()}
    values["imports"] = tuple(values["imports"] or ())  # type: ignore[arg-type]
    return FileRecord(**values)  # type: ignore[arg-type]


def history_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [("sha", pa.string()), ("message", pa.string()), ("modified", pa.list_(pa.string()))]
    )


def history_rows(commits: Sequence[PastCommit]) -> pa.Table:
    import pyarrow as pa

    return pa.table(
        {
            "sha": [c.sha for c in commits],
            "message": [c.message for c in commits],
            "modified": [list(c.modified) for c in commits],
        },
        schema=history_schema(),
    )


def commit_from_row(row: Mapping[str, Any]) -> PastCommit:
    return PastCommit(str(row["sha"]), str(row["message"]), tuple(row["modified"] or ()))
