"""Frozen records that cross pipeline stages, all importable from `ctxopt.types`.

Every stage of ctxopt is a function over these records; no stage reaches into
another stage's internals.  One module per stage that produces them (source files
and chunks, the index, retrieval, the LLM table, packing) keeps each short; the
modules import one another directly, never this package, so there is no cycle.
"""

from ctxopt.types.index import FileRecord, IndexMeta, IndexStats, RefreshPlan
from ctxopt.types.llm import ModelInfo, Recommendation, Tier
from ctxopt.types.pack import (
    HELD_BACK_BY_THE_CAP,
    Choice,
    Dropped,
    DropReason,
    Fidelity,
    PackResult,
    PickReason,
    Savings,
    StepReason,
    StopReason,
)
from ctxopt.types.query import Entities, Intent, IntentType, QueryResult, ScoredChunk
from ctxopt.types.source import (
    Chunk,
    ChunkedFile,
    ChunkKind,
    Discovery,
    PastCommit,
    SecretSpan,
    SkippedFile,
    SourceFile,
)

__all__ = [
    "HELD_BACK_BY_THE_CAP",
    "Choice",
    "Chunk",
    "ChunkKind",
    "ChunkedFile",
    "Discovery",
    "DropReason",
    "Dropped",
    "Entities",
    "Fidelity",
    "FileRecord",
    "IndexMeta",
    "IndexStats",
    "Intent",
    "IntentType",
    "ModelInfo",
    "PackResult",
    "PastCommit",
    "PickReason",
    "QueryResult",
    "Recommendation",
    "RefreshPlan",
    "Savings",
    "ScoredChunk",
    "SecretSpan",
    "SkippedFile",
    "SourceFile",
    "StepReason",
    "StopReason",
    "Tier",
]
