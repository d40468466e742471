"""The chunk rows of one index version held in memory, for a long-lived process.

A query looks chunks up by file path, symbol name and referenced name, and fetches the
rows its full-text and vector hits name; against LanceDB each look-up is a filtered scan
of the chunks table and each fetch a random read of whole rows, some 0.07 s of a warm `ctxopt
mcp` pack on a 1M-line repository.  The server marks the reader it keeps (`keep_rows`); the
first `CandidateSource` on that reader loads the chunk columns once (an Arrow table of about
the size of the indexed text), then answers those look-ups with Arrow compute in memory, in
the table's row order and with the same limits as the SQL it replaces, so a query finds
the same chunks in the same order.  Readers not marked (the CLI's, one query per process)
stay with LanceDB: loading every row costs more than a few scans.  The marks and the rows
of marked readers are kept by `kept_rows` (which imports this module, and pyarrow, only
for a marked reader).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ctxopt.retrieve.chunk_row import CHUNK_COLUMNS, chunk_from_row
from ctxopt.types import Chunk

ROW_ID = "_rowid"
MAX_CHUNK_OBJECTS = 8192  # Chunk objects kept made (most recently used), of all the rows


class ChunkRows:
    """Every chunk row of one dataset version; look-ups answer as LanceDB's filtered scans
    of that version would (rows in table order, the first `limit`)."""

    def __init__(self, dataset: Any) -> None:
        table = dataset.to_table(columns=CHUNK_COLUMNS, with_row_id=True).combine_chunks()
        self._table: pa.Table = table.select(CHUNK_COLUMNS)
        ids = table.column(ROW_ID).to_pylist()
        self._positions: dict[int, int] = {row_id: at for at, row_id in enumerate(ids)}
        self._made: OrderedDict[int, Chunk] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._table.num_rows

    def by_row_ids(self, row_ids: Iterable[int]) -> list[Chunk]:
        """The chunks of LanceDB row ids (`with_row_id=True` answers), in that order."""
        return self.chunks([self._positions[row_id] for row_id in row_ids])

    def chunks(self, positions: Sequence[int]) -> list[Chunk]:
        """The chunks at table positions, in that order."""
        with self._lock:
            found = {at: self._made[at] for at in positions if at in self._made}
            for at in found:
                self._made.move_to_end(at)
        missing = [at for at in dict.fromkeys(positions) if at not in found]
        if missing:
            rows = self._table.take(pa.array(missing, pa.int64())).to_pylist()
            made = dict(zip(missing, map(chunk_from_row, rows), strict=True))
            found.update(made)
            with self._lock:
                self._made.update(made)
                while len(self._made) > MAX_CHUNK_OBJECTS:
                    self._made.popitem(last=False)
        return [found[at] for at in positions]

    def named(self, names: Iterable[str], limit: int) -> list[Chunk]:
        """`name IN names OR qualified_name IN names`."""
        wanted = _values(names)
        mask = pc.or_(
            pc.is_in(self._table.column("name"), value_set=wanted),
            pc.is_in(self._table.column("qualified_name"), value_set=wanted),
        )
        return self._first(mask, limit)

    def overlapping(
        self, ranges: Mapping[str, Sequence[tuple[int, int]]], limit: int
    ) -> list[Chunk]:
        """`(path = p AND start_line <= last AND end_line >= first) OR ...` for each range."""
        paths = self._table.column("path")
        starts, ends = self._table.column("start_line"), self._table.column("end_line")
        mask = None
        for path, spans in ranges.items():
            in_file = pc.equal(paths, path)
            for first, last in spans:
                lines = pc.and_(pc.less_equal(starts, last), pc.greater_equal(ends, first))
                hit = pc.and_(in_file, lines)
                mask = hit if mask is None else pc.or_(mask, hit)
        return self._first(mask, limit) if mask is not None else []

    def in_files(self, paths: Iterable[str], limit: int) -> list[Chunk]:
        """`path IN paths`."""
        return self._first(pc.is_in(self._table.column("path"), value_set=_values(paths)), limit)

    def referencing(self, names: Iterable[str], kinds: Sequence[str], limit: int) -> list[Chunk]:
        """`array_has_any(references, names)`, and `kind IN kinds` when kinds are given."""
        codes, parents, dictionary = self._references
        hit = pc.indices_nonzero(pc.is_in(dictionary, value_set=_values(names)))
        rows = pc.unique(pc.filter(parents, pc.is_in(codes, value_set=hit.cast(codes.type))))
        if kinds:
            kind = self._table.column("kind").take(rows)
            rows = pc.filter(rows, pc.is_in(kind, value_set=_values(kinds)))
        return self.chunks(rows.to_pylist()[:limit])

    @cached_property
    def _references(self) -> tuple[pa.Array, pa.Array, pa.Array]:
        """Every (row, referenced name) pair: the name's code, the row, and the names."""
        column = self._table.column("references")
        flat = pc.list_flatten(column)
        parents = pc.list_parent_indices(column)
        encoded = pc.dictionary_encode(flat).combine_chunks()
        return encoded.indices, parents.combine_chunks(), encoded.dictionary

    def _first(self, mask: pa.ChunkedArray | pa.Array, limit: int) -> list[Chunk]:
        positions = pc.indices_nonzero(pc.fill_null(mask, False)).to_pylist()[:limit]
        return self.chunks(positions)


def _values(values: Iterable[str]) -> pa.Array:
    return pa.array(sorted(set(values)), pa.string())
