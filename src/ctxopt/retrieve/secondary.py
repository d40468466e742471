"""Chunks that rank below code unless the task is about them: tests, documentation, and
the history of a project (changelogs, release notes), each with its own factor (pure)."""

from __future__ import annotations

import functools
import re
from enum import Enum
from pathlib import PurePosixPath

from ctxopt.languages import by_name
from ctxopt.languages.record import Family
from ctxopt.types import Chunk, ChunkKind


class Secondary(str, Enum):
    """Why a chunk ranks below code; the factor its score is multiplied by is SECONDARY_FACTORS."""

    TEST = "test"
    DOCS = "docs"  # prose: Markdown, reStructuredText, text; anything under a docs folder
    HISTORY = "history"  # changelogs, release notes, news: what changed, not the code


SECONDARY_FACTORS: dict[Secondary, float] = {
    Secondary.TEST: 0.8,
    Secondary.DOCS: 0.7,
    Secondary.HISTORY: 0.6,
}

_HISTORY = re.compile(
    r"^(change[s_-]?log|changes|history|news|releases?|release[_-]?notes|whats[_-]?new)"
    r"(\.[a-z0-9]+)*$",
    re.I,
)
HISTORY_DIRS = frozenset({"changelog", "changes", "changelogs", "release-notes", "releases"})
DOC_DIRS = frozenset({"doc", "docs", "documentation", "man", "site", "website"})
DOC_EXTENSIONS = frozenset({".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".textile"})


def secondary_class(chunk: Chunk) -> Secondary | None:
    """The class of a chunk that ranks below code, or None for code."""
    return _secondary_class(chunk.path, chunk.language, chunk.kind)


@functools.lru_cache(maxsize=65536)  # every candidate is asked, twice a query, call after call
def _secondary_class(path: str, language: str, kind: ChunkKind) -> Secondary | None:
    pure = PurePosixPath(path)
    folders = {p.lower() for p in pure.parts[:-1]}
    record = by_name(language)
    code = record is not None and record.family is Family.CODE
    if not code and (_HISTORY.match(pure.name) or folders & HISTORY_DIRS):
        return Secondary.HISTORY
    if kind is ChunkKind.TEST:
        return Secondary.TEST
    if kind is ChunkKind.DOC or (record is not None and record.secondary):
        return Secondary.DOCS
    if not code and (folders & DOC_DIRS or pure.suffix.lower() in DOC_EXTENSIONS):
        return Secondary.DOCS  # code under docs/ (examples) stays code
    return None
