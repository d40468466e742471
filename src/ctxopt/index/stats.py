"""Index figures: files, chunks, tokens per language, size on disk, freshness."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ctxopt.config.settings import Settings
from ctxopt.index.build import language_table
from ctxopt.index.freshness import stale_count, stale_plan
from ctxopt.index.secret_counts import secret_counts
from ctxopt.index.store import IndexReader


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
    secrets: dict[str, int] = field(default_factory=dict)  # kind -> findings redacted in outputs


def folder_size(path: Path) -> int:
    total = 0
    for folder, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def index_report(settings: Settings) -> IndexReport:
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
        secrets=secret_counts(reader),
    )
