"""Index figures: files, chunks, tokens per language and per folder, the largest files,
size on disk, freshness; and the stored chunk text that compression is measured on.

Everything here reads the index only: the repository is never re-parsed (the freshness
check walks it and compares sizes and times, as every query does)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ctxopt.config.paths import DbLocation
from ctxopt.config.settings import Settings
from ctxopt.index import schema
from ctxopt.index.build import language_table
from ctxopt.index.freshness import stale_count, stale_plan
from ctxopt.index.secret_counts import secret_counts
from ctxopt.index.store import IndexReader
from ctxopt.types import FileRecord

ROOT_FOLDER = "."  # files at the top of the repository


@dataclass(frozen=True)
class FolderTokens:
    folder: str  # the first `depth` folders of the path, POSIX; "." for top-level files
    files: int
    tokens: int


@dataclass(frozen=True)
class FileTokens:
    path: str
    language: str
    tokens: int
    chunks: int


@dataclass(frozen=True)
class StoredChunk:
    """The text of one indexed chunk as stored, with what compressing it needs."""

    id: str
    language: str
    start_line: int
    text: str
    tokens: int


@dataclass(frozen=True)
class IndexReport:
    files: int
    chunks: int
    tokens: int
    languages: dict[str, dict[str, int]]
    size_bytes: int
    embedder: str
    dimensions: int
    last_commit: str
    indexed_at: float
    changed_since: int
    db_path: str
    depth: int = 1
    folders: tuple[FolderTokens, ...] = ()  # every folder at `depth`, most tokens first
    largest_files: tuple[FileTokens, ...] = ()
    secrets: dict[str, int] = field(default_factory=dict)  # kind -> findings redacted in outputs
    ranking: str = ""  # which ranking weights are in force and why (retrieve/tuned.py)
    weights: dict[str, float] = field(default_factory=dict)  # the ranking weights in force
    history_commits: int = 0  # commit messages kept as ranking evidence


def folder_of(path: str, depth: int) -> str:
    """The first depth folders of a repo-relative path ("." for a top-level file)."""
    parents = PurePosixPath(path).parts[:-1][: max(depth, 1)]
    return "/".join(parents) or ROOT_FOLDER


def folder_tokens(records: Iterable[FileRecord], depth: int) -> tuple[FolderTokens, ...]:
    """Files and tokens per folder at depth, most tokens first, ties by name."""
    files: dict[str, int] = {}
    counts: dict[str, int] = {}
    for record in records:
        folder = folder_of(record.path, depth)
        files[folder] = files.get(folder, 0) + 1
        counts[folder] = counts.get(folder, 0) + record.tokens
    rows = (FolderTokens(name, files[name], counts[name]) for name in counts)
    return tuple(sorted(rows, key=lambda r: (-r.tokens, r.folder)))


def largest_files(records: Iterable[FileRecord], top: int) -> tuple[FileTokens, ...]:
    """The top files by tokens, ties by path."""
    ranked = sorted(records, key=lambda r: (-r.tokens, r.path))[: max(top, 0)]
    return tuple(FileTokens(r.path, r.language, r.tokens, r.chunks) for r in ranked)


def stored_chunks(reader: IndexReader) -> list[StoredChunk]:
    """Indexed chunk text as stored, in the order of their ids (hashes of path and name, so
    any prefix is a sample spread over the repository).  Class summaries are left out:
    their methods are chunks too."""
    columns = ["id", "language", "start_line", "text", "tokens", "summary"]
    table = reader.dataset(schema.CHUNKS).to_table(columns=columns)
    rows = sorted(
        (row for row in table.to_pylist() if not row["summary"]), key=lambda row: row["id"]
    )
    return [
        StoredChunk(row["id"], row["language"], row["start_line"], row["text"], row["tokens"])
        for row in rows
    ]


@dataclass(frozen=True)
class ChunkTotals:
    chunks: int
    tokens: int


def outline_totals(reader: IndexReader) -> ChunkTotals:
    """The class outlines (summary chunks of split classes) that `stored_chunks` leaves
    out: how many and their tokens."""
    table = reader.dataset(schema.CHUNKS).to_table(columns=["tokens", "summary"])
    counts = [row["tokens"] for row in table.to_pylist() if row["summary"]]
    return ChunkTotals(len(counts), sum(counts))


def folder_size(path: DbLocation) -> int:
    """Bytes under a local index folder (0 for an index on object storage: it is not on
    this disk, and listing every object to sum them would cost a request per thousand)."""
    if not isinstance(path, Path):
        return 0
    total = 0
    for folder, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def index_report(settings: Settings, *, depth: int = 1, top: int = 10) -> IndexReport:
    """Figures of the index at settings.db_path (raises IndexMissingError without one)."""
    reader = IndexReader(settings.db_path)
    meta = reader.meta()
    records = reader.file_records()
    return IndexReport(
        files=len(records),
        chunks=sum(r.chunks for r in records.values()),
        tokens=sum(r.tokens for r in records.values()),
        languages=language_table(records.values()),
        size_bytes=folder_size(settings.db_path),
        embedder=meta.embedder,
        dimensions=meta.dimensions,
        last_commit=meta.last_commit,
        indexed_at=meta.indexed_at,
        changed_since=stale_count(stale_plan(settings, reader)),
        db_path=str(settings.db_path),
        depth=depth,
        folders=folder_tokens(records.values(), depth),
        largest_files=largest_files(records.values(), top),
        secrets=secret_counts(reader),
        history_commits=len(reader.past_commits()),
    )
