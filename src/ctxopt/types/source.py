"""Records of discovery and chunking: the files of a repo and the chunks cut from them.

Paths are repo-relative POSIX strings.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    mtime_ns: int  # the later of mtime and ctime: any change to the file moves it
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
class PastCommit:
    """A commit of the repository's history: its message and the files it modified."""

    sha: str
    message: str  # subject and body
    modified: tuple[str, ...]  # paths relative to the indexed root, sorted


@dataclass(frozen=True, order=True)
class SecretSpan:
    """A secret found in a chunk: text[start:end] (character offsets in the chunk's text) and
    its kind, the value of a `ctxopt.secrets.SecretKind` ("private-key", "jwt", ...)."""

    start: int
    end: int
    kind: str


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
    secrets: tuple[SecretSpan, ...] = ()  # secrets found in text at index time


@dataclass(frozen=True)
class ChunkedFile:
    """What the chunker returns for one file."""

    chunks: tuple[Chunk, ...]
    fallback_reason: str = ""  # "" when tree-sitter chunking worked, else why lines were used
    decode_errors: int = 0  # undecodable bytes replaced while reading
