"""A chunk from a row of the chunks table (the columns a query reads)."""

from __future__ import annotations

from typing import Any

from ctxopt.index.schema import secrets_from_row
from ctxopt.types import Chunk, ChunkKind

CHUNK_COLUMNS = [
    "id", "path", "language", "kind", "name", "qualified_name", "signature", "docstring",
    "start_line", "end_line", "text", "tokens", "content_hash", "imports", "defines",
    "references", "complexity", "parent", "summary", "commit_time", "secrets",
]  # fmt: skip


def chunk_from_row(row: dict[str, Any]) -> Chunk:
    values = {name: row[name] for name in CHUNK_COLUMNS}
    values["kind"] = ChunkKind(values["kind"])
    for name in ("imports", "defines", "references"):
        values[name] = tuple(values[name] or ())
    values["secrets"] = secrets_from_row(values["secrets"])
    return Chunk(**values)
