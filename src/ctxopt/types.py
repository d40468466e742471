"""Frozen records that cross pipeline stages.

Every stage of ctxopt is a function over these records; no stage reaches
into another stage's internals.  Paths are repo-relative POSIX strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class ChunkKind(str, Enum):
    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"
    INTERFACE = "interface"
    TYPE = "type"
    CONSTANT = "constant"
    MODULE = "module"
    TEST = "test"
    CONFIG = "config"
    DOC = "doc"


@dataclass(frozen=True)
class SourceFile:
    """A file chosen by discovery, before it is read."""

    path: str  # repo-relative POSIX path
    abs_path: str
    size: int
    mtime_ns: int
    language: str  # language name from ctxopt.languages, "text" when unknown


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: str  # "binary", "too_large", "minified", "generated", "lock", "vendored", ...


@dataclass(frozen=True)
class Discovery:
    files: tuple[SourceFile, ...]
    skipped: tuple[SkippedFile, ...]
    git_root: str | None  # absolute path of the git work tree, None outside git


@dataclass(frozen=True)
class Chunk:
    """One retrievable unit of code or text (before embedding)."""

    id: str  # stable: sha1 of path, kind, qualified name and occurrence
    path: str
    language: str
    kind: ChunkKind
    name: str
    qualified_name: str  # e.g. "Parser.parse" for a method
    signature: str  # first line(s) up to the body, "" for text
    docstring: str
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    text: str  # the exact source lines start_line..end_line
    tokens: int  # cl100k tokens of text
    content_hash: str  # sha1 of text
    imports: tuple[str, ...] = ()  # modules/paths imported by the chunk's file
    defines: tuple[str, ...] = ()  # symbols defined by this chunk
    references: tuple[str, ...] = ()  # identifiers referenced by this chunk
    complexity: int = 1  # cyclomatic complexity (1 for non-code)
    parent: str = ""  # qualified name of the enclosing class, "" at top level
    summary: bool = False  # True for a class-summary chunk of a split class
    commit_time: int = 0  # unix seconds of the file's last git commit, set by the indexer


@dataclass(frozen=True)
class ChunkedFile:
    """What the chunker returns for one file."""

    chunks: tuple[Chunk, ...]
    fallback_reason: str = ""  # "" when tree-sitter chunking worked, else why lines were used
    decode_errors: int = 0  # undecodable bytes replaced while reading


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
