"""Candidate chunks from the index: full-text, vector, named entities and graph neighbours."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctxopt import interrupts
from ctxopt.index.schema import CHUNKS
from ctxopt.index.store import LANCE_ERRORS, IndexReader, damaged, in_list
from ctxopt.retrieve.chunk_row import CHUNK_COLUMNS, chunk_from_row
from ctxopt.retrieve.kept_rows import kept_rows
from ctxopt.types import Chunk

if TYPE_CHECKING:
    from ctxopt.retrieve.chunk_rows import ChunkRows

__all__ = ["CHUNK_COLUMNS", "Candidate", "CandidateSource", "by_score", "chunk_from_row"]


@dataclass
class Candidate:
    """A chunk and the raw signals that found it (ranks are 1-based)."""

    chunk: Chunk
    lexical_rank: int = 0
    lexical_score: float = 0.0
    vector_rank: int = 0
    similarity: float = 0.0
    entity_hits: set[str] = field(default_factory=set)
    graph_hits: set[str] = field(default_factory=set)
    window: float = 0.0  # best overlapping line window's BM25, relative to the best window
    window_lines: tuple[int, int] | None = None  # that window, clipped to the chunk


class CandidateSource:
    """Queries against the chunks table through pylance; on a reader a long-lived process
    keeps (`kept_rows.keep_rows`), without a prefilter, rows come from memory instead and
    look-ups by name, path and reference run there."""

    def __init__(self, reader: IndexReader, prefilter: str | None = None) -> None:
        self._db = reader.db
        self._chunks = reader.dataset(CHUNKS)
        self._prefilter = prefilter
        self._rows = kept_rows(reader) if prefilter is None else None

    def _table(self, **scan: Any) -> Any:
        """The chunks table scanned with these arguments; a table or index Lance cannot read
        (a file lost on object storage, where opening does not check them) is a damaged
        index, said in one line that names the fix."""
        before = interrupts.count()
        try:
            return self._chunks.to_table(**scan)
        except LANCE_ERRORS as exc:
            raise damaged(
                self._db, "the chunks table or its indices cannot be read", before
            ) from exc

    def _filter(self, clause: str | None) -> str | None:
        parts = [p for p in (self._prefilter, clause) if p]
        return " AND ".join(f"({p})" for p in parts) or None

    def full_text(self, query: str, limit: int) -> list[tuple[Chunk, float]]:
        rows = len(self._rows) if self._rows is not None else self._chunks.count_rows()
        if not query.strip() or rows == 0:
            return []  # an empty index has no full-text index to search
        if self._rows is not None:
            table = self._table(
                full_text_query=query, columns=["_score"], limit=limit, with_row_id=True
            )
            return _scored(self._rows, table, "_score", lambda score: score)
        table = self._table(
            full_text_query=query,
            columns=[*CHUNK_COLUMNS, "_score"],
            limit=limit,
            filter=self._filter(None),
            prefilter=True,
        )
        return by_score([(chunk_from_row(r), float(r["_score"])) for r in table.to_pylist()])

    def nearest(self, vector: Sequence[float], limit: int) -> list[tuple[Chunk, float]]:
        if self._rows is not None:
            table = self._table(
                nearest={"column": "vector", "q": vector, "k": limit, "metric": "cosine"},
                columns=["_distance"],
                with_row_id=True,
            )
            return _scored(self._rows, table, "_distance", lambda distance: 1.0 - distance)
        table = self._table(
            nearest={"column": "vector", "q": vector, "k": limit, "metric": "cosine"},
            columns=[*CHUNK_COLUMNS, "_distance"],
            filter=self._filter(None),
            prefilter=True,
        )
        hits = [(chunk_from_row(r), 1.0 - float(r["_distance"])) for r in table.to_pylist()]
        return by_score(hits)

    def where(self, clause: str, limit: int = 2000) -> list[Chunk]:
        table = self._table(columns=CHUNK_COLUMNS, filter=self._filter(clause), limit=limit)
        return [chunk_from_row(r) for r in table.to_pylist()]

    def named(self, names: Iterable[str], limit: int = 500) -> list[Chunk]:
        names = sorted(set(names))
        if not names:
            return []
        if self._rows is not None:
            return self._rows.named(names, limit)
        clause = f"{in_list('name', names)} OR {in_list('qualified_name', names)}"
        return self.where(clause, limit)

    def in_files(self, paths: Iterable[str], limit: int = 2000) -> list[Chunk]:
        paths = sorted(set(paths))
        if self._rows is not None:
            return self._rows.in_files(paths, limit) if paths else []
        return self.where(in_list("path", paths), limit) if paths else []

    def overlapping(
        self, ranges: Mapping[str, Sequence[tuple[int, int]]], limit: int = 5000
    ) -> list[Chunk]:
        """Chunks that overlap one of the line ranges (first, last) given for their file."""
        if not any(ranges.values()):
            return []
        if self._rows is not None:
            return self._rows.overlapping(ranges, limit)
        clause = " OR ".join(
            f"({in_list('path', [path])} AND start_line <= {last} AND end_line >= {first})"
            for path, spans in sorted(ranges.items())
            for first, last in spans
        )
        return self.where(clause, limit)

    def path_like(self, fragment: str, limit: int = 400) -> list[Chunk]:
        escaped = fragment.replace("'", "''").replace("%", "").replace("_", "\\_")
        clause = f"path = '{escaped}' OR path LIKE '%/{escaped}' OR path LIKE '{escaped}/%'"
        clause += f" OR path LIKE '%/{escaped}/%'"
        return self.where(clause, limit)

    def referencing(
        self, names: Iterable[str], kinds: Sequence[str] = (), limit: int = 300
    ) -> list[Chunk]:
        names = sorted(set(names))
        if not names:
            return []
        if self._rows is not None:
            return self._rows.referencing(names, kinds, limit)
        quoted = ", ".join("'" + n.replace("'", "''") + "'" for n in names)
        clause = f"array_has_any(references, [{quoted}])"
        if kinds:
            clause += f" AND {in_list('kind', kinds)}"
        return self.where(clause, limit)


def _scored(
    rows: ChunkRows, table: Any, column: str, score: Callable[[float], float]
) -> list[tuple[Chunk, float]]:
    """The kept rows' chunks of a LanceDB answer of row ids, each with its score."""
    chunks = rows.by_row_ids(table.column("_rowid").to_pylist())
    values = table.column(column).to_pylist()
    return by_score([(c, score(float(v))) for c, v in zip(chunks, values, strict=True)])


def prefilter_clause(languages: Sequence[str], kinds: Sequence[str], no_tests: bool) -> str | None:
    """SQL for the --lang, --kind and --no-tests filters (globs are applied afterwards)."""
    parts: list[str] = []
    if languages:
        parts.append(in_list("language", languages))
    if kinds:
        parts.append(in_list("kind", kinds))
    if no_tests:
        parts.append("kind <> 'test'")
    return " AND ".join(parts) or None


def by_score(hits: list[tuple[Chunk, float]]) -> list[tuple[Chunk, float]]:
    """Best first, equal scores by path and line: LanceDB returns ties in no fixed order, and
    the rank of a hit decides its fused score, so the same index and task rank the same."""
    return sorted(hits, key=lambda hit: (-hit[1], hit[0].path, hit[0].start_line, hit[0].id))
