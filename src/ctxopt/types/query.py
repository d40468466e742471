"""Records of retrieval: what a task names and wants, and the ranked chunks it finds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from ctxopt.types.source import Chunk


class IntentType(str, Enum):
    BUG_FIX = "bug_fix"
    FEATURE_ADD = "feature_add"
    EXPLAIN = "explain"
    REFACTOR = "refactor"
    TEST = "test"
    DEBUG = "debug"
    REVIEW = "review"


@dataclass(frozen=True)
class Intent:
    type: IntentType
    certainty: float  # 0..1: how clearly the text signals this intent (not the confidence
    # query and pack report: that is retrieve.confidence)
    complexity: float  # 0..1: rough task complexity (length, entities, reasoning words)
    scores: dict[str, int]


@dataclass(frozen=True)
class Entities:
    """What a task names: paths, file names, identifiers, quoted strings, errors."""

    paths: tuple[str, ...]  # things that look like paths or file names
    identifiers: tuple[str, ...]  # code-shaped names: CamelCase, snake_case, dotted
    quoted: tuple[str, ...]  # quoted strings
    errors: tuple[str, ...]  # error messages / exception names
    words: tuple[str, ...]  # other content words, lower-case
    locations: tuple[tuple[str, int], ...] = ()  # (path as written, line number)

    @property
    def symbol_names(self) -> tuple[str, ...]:
        """Plain names to look up as definitions: last parts of dotted names too."""
        names: list[str] = []
        for ident in self.identifiers:
            for part in re.split(r"\.|::", ident):
                if part and part not in names:
                    names.append(part)
            if ident not in names:
                names.append(ident)
        return tuple(names)


@dataclass(frozen=True)
class ScoredChunk:
    """A ranked chunk: what retrieval hands to pack and the CLI shows."""

    chunk: Chunk
    score: float
    factors: dict[str, float]  # factor -> weighted contribution
    reasons: tuple[str, ...]  # evidence that found it, for people ("full-text #3", ...)
    features: dict[str, float]  # factor -> raw value in 0..1
    focus_lines: tuple[int, int] | None = None  # the lines of it the task's words gather in
    mandatory: bool = False  # the caller requires it in the pack (the chunks a change touches)

    @property
    def points_at_line(self) -> bool:
        """The task names a line inside this chunk (`src/a.rs:975`, a traceback's line)."""
        return self.features.get("location", 0.0) >= 1.0

    @property
    def points_at(self) -> bool:
        """The task names this chunk's symbol or a line inside it."""
        return self.features.get("symbol", 0.0) >= 0.8 or self.points_at_line

    @property
    def required(self) -> bool:
        """It goes in the pack before anything else: mandatory, or the task points at it."""
        return self.mandatory or self.points_at

    @property
    def named_by_task(self) -> bool:
        """Required, or in a file the task names."""
        return self.required or self.features.get("proximity", 0.0) >= 1.0


@dataclass(frozen=True)
class QueryResult:
    """The ranked chunks for a task, with what the task was read as."""

    task: str
    intent: Intent
    entities: Entities
    results: tuple[ScoredChunk, ...]
    candidates: int
    embedder: str
    confidence: float = 0.0  # retrieval_confidence of the whole ranking (pack reports it too)
    ranking: str = ""  # which ranking weights were in force and why (tuned, defaults)
