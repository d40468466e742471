"""Records of packing: how much of a chunk is shown and why, what was left out, the result."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ctxopt.types.llm import ModelInfo, Recommendation
from ctxopt.types.query import QueryResult, ScoredChunk


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
    COPY_LEFT_OUT = "copy_left_out"  # a near-duplicate of a chunk that was left out too
    EMPTY = "empty"  # compression left nothing
    NO_ROOM = "no_room"  # not even its shortest form fits (its path, or with path_entries off
    # its declaration line)
    BUDGET_FULL = "budget_full"  # turned away for want of room
    PER_FILE_CAP = "per_file_cap"  # its file already has the most chunks allowed
    DISPLACED = "displaced"  # it made way for a higher-scored chunk of its file
    MADE_ROOM = "made_room"  # it made room for a higher-scored chunk of another file
    FITTING = "fitting"  # removed to keep the rendered prompt within the budget
    LOW_CONFIDENCE = "low_confidence"  # the task matched too little: only what it names goes in


# Chunks the per-file cap kept out: turned away by it, or taken out to make way for a
# higher-scored chunk of their file.  Room left after the budget walk lets them back in.
HELD_BACK_BY_THE_CAP = frozenset({DropReason.PER_FILE_CAP, DropReason.DISPLACED})


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
    # a class summary's member bodies: the line ranges it leaves out (None: not known)
    left_out: tuple[tuple[int, int], ...] | None = None

    @property
    def start_line(self) -> int:
        return self.lines[0] if self.lines else self.hit.chunk.start_line

    @property
    def end_line(self) -> int:
        return self.lines[1] if self.lines else self.hit.chunk.end_line


@dataclass(frozen=True)
class Dropped:
    """A ranked chunk left out, and why (limit: the per-file cap, for PER_FILE_CAP; twin: the
    id of the chunk it is a near-duplicate of, for NEAR_DUPLICATE and COPY_LEFT_OUT)."""

    hit: ScoredChunk
    reason: DropReason
    limit: int = 0
    twin: str = ""

    @property
    def text(self) -> str:
        if self.reason is DropReason.PER_FILE_CAP:
            return f"already {self.limit} chunks from its file"
        return _DROP_TEXT[self.reason]


_DROP_TEXT = {
    DropReason.NEAR_DUPLICATE: "near-duplicate of a chunk kept instead",
    DropReason.COPY_LEFT_OUT: "near-duplicate of a chunk left out too",
    DropReason.EMPTY: "nothing left after compression",
    DropReason.NO_ROOM: "no room left even for its shortest form",
    DropReason.BUDGET_FULL: "the budget is full",
    DropReason.PER_FILE_CAP: "already {limit} chunks from its file",
    DropReason.DISPLACED: "made way for a higher-scored chunk of its file",
    DropReason.MADE_ROOM: "made room for a higher-scored chunk of another file",
    DropReason.FITTING: "dropped to keep the rendered prompt within the budget",
    DropReason.LOW_CONFIDENCE: "the task matched too little code; only what it names is packed",
}


@dataclass(frozen=True)
class Savings:
    repo_tokens: int
    packed_tokens: int
    percentage: float
    cost_saved: float  # USD, input price of `model` (see pack.models.price_model)
    model: str  # the model the savings are priced at


@dataclass(frozen=True)
class PackResult:
    prompt: str
    tokens: int  # cl100k tokens of the prompt
    budget: int  # cl100k budget the prompt was held to
    model_budget: int  # the budget in the model's own tokens
    encoding: str
    token_factor: float
    files: tuple[str, ...]
    chosen: tuple[Choice, ...]
    dropped: tuple[Dropped, ...]
    savings: Savings
    recommendation: Recommendation
    query: QueryResult
    confidence: float
    warnings: tuple[str, ...]
    stale: int
    model: ModelInfo | None = None  # the model the user named, if any
    model_cost: float = 0.0  # USD for the prompt as input to `model` (0.0 when none was named)
    reserve: float | None = None  # share of its window kept for the answer (None: --budget)
    stopped_by: StopReason = StopReason.BUDGET  # the limit that ended the selection
    candidates: int = 0  # ranked chunks the selection chose from
    max_chunks_per_file: int = 0  # the per-file cap it applied
    secrets_redacted: int = 0  # findings redacted on the lines the pack shows

    @property
    def room_left(self) -> int:
        """cl100k tokens of the budget the prompt did not use."""
        return max(0, self.budget - self.tokens)
