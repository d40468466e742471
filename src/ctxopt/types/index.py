"""Records of the index: what it knows about each file, how a refresh changes it, its figures."""

from __future__ import annotations

from dataclasses import dataclass, field

from ctxopt.types.source import SourceFile


@dataclass(frozen=True)
class FileRecord:
    """A row of the files table: what the index knows about one file."""

    path: str
    content_hash: str
    size: int
    mtime_ns: int
    language: str
    tokens: int
    chunks: int
    commit_time: int  # unix seconds of the file's last commit, 0 if unknown
    imports: tuple[str, ...] = ()  # import strings of the file, as written


@dataclass(frozen=True)
class RefreshPlan:
    """Which files an incremental refresh must (re)process or delete."""

    added: tuple[SourceFile, ...]
    changed: tuple[SourceFile, ...]
    deleted: tuple[str, ...]
    unchanged: tuple[str, ...]
    touched: tuple[SourceFile, ...] = ()  # stat changed but content may be the same

    @property
    def is_empty(self) -> bool:
        return not (self.added or self.changed or self.deleted or self.touched)


@dataclass(frozen=True)
class IndexMeta:
    format_version: int
    embedder: str
    dimensions: int
    chunker_version: int
    last_commit: str
    indexed_at: float
    repo_root: str
    history_commits: int = -1  # the newest commits kept as evidence (-1: an index from before)


@dataclass(frozen=True)
class IndexStats:
    files: int
    chunks: int
    tokens: int
    languages: dict[str, dict[str, int]]  # language -> {"files", "chunks", "tokens"}
    skipped: dict[str, int]  # reason -> count
    added: int = 0
    changed: int = 0
    deleted: int = 0
    embedded: int = 0
    fallback_files: int = 0
    decode_errors: int = 0
    seconds: float = 0.0
    embedder: str = ""
    db_path: str = ""
    warnings: tuple[str, ...] = field(default_factory=tuple)
