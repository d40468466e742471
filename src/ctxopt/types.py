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
    def points_at(self) -> bool:
        """The task names this chunk's symbol or a line inside it."""
        return self.features.get("symbol", 0.0) >= 0.8 or self.features.get("location", 0.0) >= 1.0

    @property
    def required(self) -> bool:
        """It goes in the pack before anything else: mandatory, or the task points at it."""
        return self.mandatory or self.points_at

    @property
    def named_by_task(self) -> bool:
        """Required, or in a file the task names."""
        return self.required or self.features.get("proximity", 0.0) >= 1.0


class Fidelity(str, Enum):
    """How much of a chunk a pack shows, from most to least."""

    FULL = "full"
    EXCERPT = "excerpt"  # the stretch of a long chunk the task's words gather in
    SIGNATURE = "signature"  # signature and docstring, or a class summary
    STUB = "stub"  # one line
    PATH = "path"  # only named in the list of other relevant places


class PickReason(str, Enum):
    """Why a chunk went into the pack (the value is a stable code; `text` is what people read)."""

    NAMED = "named"  # the task names its symbol or a line inside it
    CHANGED = "changed"  # mandatory: the change under review touches it
    NAMED_FILE = "named_file"  # in a file the task names
    FOCUS_FILE = "focus_file"  # part of a file the ranking is clearly about, shown whole
    LEAD = "lead"  # one of the best hits, put in whole before the per-token ordering
    COMPANION_TEST = "companion_test"  # the test file of one of the best source files
    USED_TYPE = "used_type"  # a type the picked code uses, as its signature
    SCORE = "score"  # by score per token
    LEFTOVER = "leftover"  # room left after every file had its share
    TOP_UP = "top_up"  # room the rendered prompt left (merged neighbours)

    @property
    def text(self) -> str:
        return _PICK_TEXT[self]

    @property
    def counts_toward_cap(self) -> bool:
        """Whether the entry counts against its file's per-file cap."""
        return self is not PickReason.USED_TYPE

    @property
    def by_score(self) -> bool:
        """Picked only for its score: the first to go when the rendered prompt is too long."""
        return self in (PickReason.SCORE, PickReason.LEAD, PickReason.TOP_UP)


_PICK_TEXT = {
    PickReason.NAMED: "named by the task",
    PickReason.CHANGED: "touched by the change",
    PickReason.NAMED_FILE: "in a file the task names",
    PickReason.FOCUS_FILE: "part of a file the task is about",
    PickReason.LEAD: "score",
    PickReason.COMPANION_TEST: "test of the code the task is about",
    PickReason.USED_TYPE: "type used by picked code",
    PickReason.SCORE: "score",
    PickReason.LEFTOVER: "room left after the per-file cap",
    PickReason.TOP_UP: "room left by merged neighbours",
}


class StepReason(str, Enum):
    """Why a picked chunk is shown below full fidelity."""

    SMALL_BUDGET = "small_budget"  # the whole pack starts at signatures
    TYPE_SIGNATURE = "type_signature"  # used types are shown as signatures only
    LONG_LEAD = "long_lead"  # a best hit too long to show whole: its excerpt
    NO_ROOM = "no_room"  # a fuller form did not fit in the budget left

    @property
    def text(self) -> str:
        return _STEP_TEXT[self]


_STEP_TEXT = {
    StepReason.SMALL_BUDGET: "small budget: signatures only",
    StepReason.TYPE_SIGNATURE: "used types are shown as signatures",
    StepReason.LONG_LEAD: "too long to show whole",
    StepReason.NO_ROOM: "no room for more of it",
}


class DropReason(str, Enum):
    """Why a ranked chunk was left out of the pack."""

    NEAR_DUPLICATE = "near_duplicate"
    EMPTY = "empty"  # compression left nothing
    NO_ROOM = "no_room"  # not even its path fits
    BUDGET_FULL = "budget_full"  # turned away for want of room
    PER_FILE_CAP = "per_file_cap"  # its file already has the most chunks allowed
    FITTING = "fitting"  # removed to keep the rendered prompt within the budget


class StopReason(str, Enum):
    """What ended a pack's selection."""

    BUDGET = "budget"  # chunks were turned away for want of room
    PER_FILE_CAP = "per_file_cap"  # room was left; the rest was held back by the per-file cap
    CANDIDATES = "candidates"  # room was left; every ranked candidate was used or set aside


@dataclass(frozen=True)
class Choice:
    """A chunk picked for the pack, at a fidelity, with its rendered content and cost."""

    hit: ScoredChunk
    fidelity: Fidelity
    content: str
    tokens: int  # cost of this entry in the rendered prompt
    why: PickReason
    lines: tuple[int, int] | None = None  # the original lines shown in full, if not all
    stepped: StepReason | None = None  # why it is below full fidelity (None: full, or no step)

    @property
    def start_line(self) -> int:
        return self.lines[0] if self.lines else self.hit.chunk.start_line

    @property
    def end_line(self) -> int:
        return self.lines[1] if self.lines else self.hit.chunk.end_line


@dataclass(frozen=True)
class Dropped:
    """A ranked chunk left out, and why (limit: the per-file cap, for PER_FILE_CAP)."""

    hit: ScoredChunk
    reason: DropReason
    limit: int = 0

    @property
    def text(self) -> str:
        if self.reason is DropReason.PER_FILE_CAP:
            return f"already {self.limit} chunks from its file"
        return _DROP_TEXT[self.reason]


_DROP_TEXT = {
    DropReason.NEAR_DUPLICATE: "near-duplicate of a higher-scored chunk",
    DropReason.EMPTY: "nothing left after compression",
    DropReason.NO_ROOM: "no room left even as a path",
    DropReason.BUDGET_FULL: "the budget is full",
    DropReason.PER_FILE_CAP: "already {limit} chunks from its file",
    DropReason.FITTING: "dropped to keep the rendered prompt within the budget",
}
