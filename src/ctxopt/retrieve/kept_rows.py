"""Which index readers a long-lived process keeps, and their chunk rows in memory (see
`chunk_rows`), loaded on first use and dropped with the reader."""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING

from ctxopt.index.schema import CHUNKS
from ctxopt.index.store import IndexReader

if TYPE_CHECKING:
    from ctxopt.retrieve.chunk_rows import ChunkRows

MAX_ROWS = 250_000  # chunks (some 7M lines): a bigger index stays with LanceDB's scans
_DECLINED = "declined"  # a marked reader whose index is too big to hold

_KEPT: weakref.WeakKeyDictionary[IndexReader, ChunkRows | str | None] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def keep_rows(reader: IndexReader) -> None:
    """Mark a reader a process keeps across calls: its chunk rows are loaded on first use
    and kept as long as the reader."""
    with _KEPT_LOCK:
        _KEPT.setdefault(reader, None)


def kept_rows(reader: IndexReader) -> ChunkRows | None:
    """The in-memory rows of a marked reader (loaded now if not yet), None for others and
    for an index of more than MAX_ROWS chunks."""
    with _KEPT_LOCK:
        if reader not in _KEPT:
            return None
        rows = _KEPT[reader]
        if rows is None:
            dataset = reader.dataset(CHUNKS)
            if dataset.count_rows() > MAX_ROWS:
                rows = _KEPT[reader] = _DECLINED
            else:
                from ctxopt.retrieve.chunk_rows import ChunkRows  # pyarrow: only for the server

                rows = _KEPT[reader] = ChunkRows(dataset)
        return None if isinstance(rows, str) else rows


def loaded_rows(reader: IndexReader) -> ChunkRows | None:
    """The rows of a marked reader if they are loaded (None otherwise; never loads)."""
    with _KEPT_LOCK:
        rows = _KEPT.get(reader)
        return None if isinstance(rows, str) else rows
