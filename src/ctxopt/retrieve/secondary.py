"""Chunks that rank below code unless the task is about them: tests, documentation, the
history of a project (changelogs, release notes) and its tooling (CI, linter and bundler
configuration), each with its own factor (pure)."""

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
    TOOLING = "tooling"  # CI, linters, formatters, bundlers, task runners: how it is built


# Docs, history and tooling were at 0.7 / 0.6 / 0.7 until 2026-12-07: against 60-line windows
# of source files only (bm25-code-window), 15-26% of an 8k pack went to them on click, urfave/cli
# and sinatra; at these factors the development split's lines rose +0.001 / +0.009 / +0.008 and
# the test split's +0.003 / +0.007 / +0.007 (README, "Windows of source files only").
SECONDARY_FACTORS: dict[Secondary, float] = {
    Secondary.TEST: 0.8,
    Secondary.DOCS: 0.35,
    Secondary.HISTORY: 0.3,
    Secondary.TOOLING: 0.35,
}

_HISTORY = re.compile(
    r"^(change[s_-]?log|changes|history|news|releases?|release[_-]?notes|whats[_-]?new)"
    r"(\.[a-z0-9]+)*$",
    re.I,
)
HISTORY_DIRS = frozenset({"changelog", "changes", "changelogs", "release-notes", "releases"})
DOC_DIRS = frozenset({"doc", "docs", "documentation", "man", "site", "website"})
DOC_EXTENSIONS = frozenset({".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".textile"})
# A dot-named file or folder (`.eslintrc.js`, `.github/workflows/ci.yml`, `.storybook/main.ts`)
# configures a tool; so do `*.config.js`, `*.conf.js` and the task runners' and CI's own files.
_TOOLING_NAME = re.compile(
    r"^(\..+|.+\.(config|conf)\.[cm]?[jt]sx?|(grunt|gulp|jake|danger)file\.[cm]?[jt]s"
    r"|noxfile\.py|tox\.ini|(appveyor|azure-pipelines|codecov)\.ya?ml|renovate\.json5?"
    r"|jenkinsfile)$",
    re.I,
)
# Words that make a task about the project's tooling, so that its files keep their rank.
TOOLING_TASK = re.compile(
    r"\b(ci|cd|lint\w*|eslint|prettier|formatt\w*|workflows?|github|actions?|travis|circleci"
    r"|appveyor|build\w*|bundl\w*|configs?|configur\w*|tsconfig|webpack|rollup|vite|babel"
    r"|jest|karma|tox|nox|pre-commit|hooks?|coverage|codecov|renovate|dependabot|deps"
    r"|dependenc\w*|devcontainer|editorconfig|gitignore|husky|release|publish\w*"
    r"|ruff|flake8|pylint|mypy|pyright|isort|rubocop|clippy|rustfmt|gofmt|golangci[\w-]*"
    r"|stylelint|biome|clang-format|clang-tidy|typecheck\w*|type-check\w*)\b",
    re.I,
)


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
    if is_tooling_path(path):
        return Secondary.TOOLING
    return None


def is_tooling_path(path: str) -> bool:
    """The path is a tool's configuration: dot-named, in a dot-named folder, `*.config.js`..."""
    parts = PurePosixPath(path).parts
    return bool(parts) and (
        any(p.startswith(".") and p not in (".", "..") for p in parts[:-1])
        or _TOOLING_NAME.match(parts[-1]) is not None
    )
