"""Choosing chunks within a token budget, stepping fidelity down before dropping (pure).

Order of preference: chunks the task names (mandatory), then type definitions the
picked code uses (as signatures; each shown whole at its own score's turn where room holds
it), then the rest by score per token.  Near-duplicates are removed,
chunks per file are capped unless the task names the file, and each further chunk
from an already-chosen file counts a little less (diversity).
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ctxopt.languages.naming import is_test_path
from ctxopt.pack.duplicates import copy_holders, near_duplicates
from ctxopt.pack.key_lines import KEY_LINES, key_lines, lines_to_show
from ctxopt.retrieve.companions import companion_tests
from ctxopt.types import (
    HELD_BACK_BY_THE_CAP,
    Choice,
    Chunk,
    ChunkKind,
    Dropped,
    DropReason,
    Fidelity,
    PickReason,
    ScoredChunk,
    StepReason,
)

# Both tuned on the retrieval benchmark and checked again on its fourteen-repository development
# split and test split (README, "re-fitted ... not kept"): 0.35 / 0.98 lost on the test split.
DIVERSITY_DECAY = 0.95  # 0.85 spread budgets too thin
DENSITY_EXPONENT = 0.25  # 0.5 starved big changed functions
MIN_ENTRY = 12  # no entry, not even a path, costs less than this
TYPE_SHARE = 0.05  # a used type is shown as a signature only if it costs at most this share
MIN_TYPE_COST = 150  # ... or this many tokens
TYPES_BUDGET_SHARE = 0.15  # all used types together take at most this share
FILE_HEADER = 24  # a file's header line in the prompt, roughly
TYPE_KINDS = (ChunkKind.CLASS, ChunkKind.INTERFACE, ChunkKind.TYPE)
LEAD_COUNT = 5  # the best hits go in whole before the per-token ordering ...
LEAD_TOKENS = 800  # ... or one per this many tokens of budget, if more (about 10 at 8k) ...
LEAD_SHARE = 0.75  # ... when they score this close to the best one ...
LEAD_MAX_SHARE = 0.25  # ... and each takes at most this share of the budget
COMPANION_SOURCES = 2  # the best source files whose test file gets its best chunk in ...
COMPANION_MAX_SHARE = 0.1  # ... when that chunk takes at most this share of the budget
NAMED_FLOOR = 0.6  # a chunk the task names goes in first only if it scores this close to the best
NAMED_FILE_SHARE = 0.5  # chunks of files the task names go in first up to this share; the
# rest compete on score (a pasted compiler warning naming a big file must not fill the pack)


# The ladder an entry steps down before it is dropped.  A path alone shows no code: it is a
# step only with SelectOptions.path_entries (otherwise the ladder ends at the declaration line).
FIDELITY_ORDER = (
    Fidelity.FULL,
    Fidelity.EXCERPT,
    Fidelity.SIGNATURE,
    Fidelity.STUB,
    Fidelity.PATH,
)
SHORTENED = (Fidelity.SIGNATURE, Fidelity.STUB)  # shown in full instead when about as cheap:
WHOLE_SLACK = 4  # at most this many tokens dearer (or a tenth), where the budget holds it
MIN_KEY_LINES = 8  # the fewest key lines a top hit shows in place of its file's last code
EXCERPT_SAVING = 1.5  # an excerpt only stands in for a chunk this many times its length
# Entries a better-scored chunk of the same file may displace (its file met its cap, or the
# budget turned it away):
# those picked for their score alone (not what the task names, a whole file or a type).
DISPLACEABLE = (PickReason.SCORE, PickReason.LEAD, PickReason.COMPANION_TEST)
SHOWS_CODE = (Fidelity.FULL, Fidelity.EXCERPT)  # a signature or stub is a declaration line


@dataclass(frozen=True)
class Selection:
    chosen: tuple[Choice, ...]
    dropped: tuple[Dropped, ...]
    spent: int


class Render(Protocol):
    """Content of a chunk at a fidelity (lines: the excerpt's) and its token cost."""

    def __call__(
        self, chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None
    ) -> tuple[str, int]: ...


def excerpt_lines(hit: ScoredChunk) -> tuple[int, int] | None:
    """The lines an excerpt of the hit shows, when it has some and they save enough."""
    if hit.focus_lines is None:
        return None
    chunk = hit.chunk
    first, last = hit.focus_lines
    span = chunk.end_line - chunk.start_line + 1
    if chunk.text.count("\n") + 1 != span or span < EXCERPT_SAVING * (last - first + 1):
        return None
    return first, last


@dataclass(frozen=True)
class SelectOptions:
    budget: int  # tokens available for chunk entries
    max_chunks_per_file: int = 3
    strict_cap: bool = False  # the user's cap: room left never adds a capped file's chunks
    displace: bool = False  # a file's better chunk takes weaker ones' place (make_way)
    path_entries: bool = True  # an entry may step down to its bare path (it shows no code)
    named_files: frozenset[str] = frozenset()
    start_fidelity: Fidelity = Fidelity.FULL
    whole_files: tuple[str, ...] = ()  # files to show whole when they take a small share
    whole_share: float = 0.4  # ... of the budget at most
    key_terms: frozenset[str] = frozenset()  # the task's words a long chunk's key lines hold


_IMPLEMENTATION = re.compile(r"\s*(?:unsafe\s+)?impl\b")


def _priority(hit: ScoredChunk, tokens: int, per_file: int) -> float:
    """Score per token, damped (BM25 already favours short chunks), and a little less for
    each chunk its file already has."""
    return hit.score / max(tokens, 40) ** DENSITY_EXPONENT * DIVERSITY_DECAY**per_file


def _types_used(chosen: Sequence[Choice], hits: Sequence[ScoredChunk]) -> list[ScoredChunk]:
    """One definition per type name the chosen code references, the best-scored one; an
    implementation block (Rust `impl X`) is not the type's definition."""
    used = {ref for c in chosen for ref in c.hit.chunk.references}
    chosen_names = {
        c.hit.chunk.name
        for c in chosen
        if c.hit.chunk.kind in TYPE_KINDS and not _IMPLEMENTATION.match(c.hit.chunk.signature)
    }
    found: dict[str, ScoredChunk] = {}
    for h in hits:
        name = h.chunk.name
        if (
            h.chunk.kind in TYPE_KINDS
            and name in used
            and name not in chosen_names
            and name not in found
            and not _IMPLEMENTATION.match(h.chunk.signature)
        ):
            found[name] = h
    return list(found.values())


def floor_cost(chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None) -> int:
    """A cheap lower bound of an entry's cost, to skip rendering what cannot fit."""
    if fidelity == Fidelity.FULL:
        return chunk.tokens // 4 + MIN_ENTRY
    if fidelity == Fidelity.EXCERPT and lines is not None:
        share = (lines[1] - lines[0] + 1) / (chunk.end_line - chunk.start_line + 1)
        return int(chunk.tokens * share) // 4 + MIN_ENTRY
    if fidelity == Fidelity.SIGNATURE:
        return len(chunk.signature) // 5 + MIN_ENTRY
    return MIN_ENTRY


@dataclass(frozen=True)
class _Snapshot:
    """What a trial exchange may change, to undo it."""

    spent: int
    per_file: Counter[str]
    headers: set[str]
    chosen: list[Choice]
    dropped: int  # how many drops were listed


class _Budget:
    def __init__(self, options: SelectOptions, render: Render) -> None:
        self.options = options
        self.render = render
        self.spent = 0
        self.per_file: Counter[str] = Counter()
        self.headers: set[str] = set()  # files whose header is already paid for
        self.chosen: list[Choice] = []
        self.dropped: list[Dropped] = []

    def capped(self, hit: ScoredChunk) -> bool:
        path = hit.chunk.path
        return (
            self.per_file[path] >= self.options.max_chunks_per_file
            and path not in self.options.named_files
        )

    def try_add(
        self,
        hit: ScoredChunk,
        why: PickReason,
        lowest: Fidelity = Fidelity.PATH,
        *,
        highest: Fidelity = Fidelity.FULL,
        note: bool = True,
        stepped: StepReason | None = None,  # why it is below full, when the caller knows better
        excerpt: tuple[int, int] | None = None,  # the lines an excerpt shows, if not its focus
    ) -> bool:
        start = max(
            FIDELITY_ORDER.index(self.options.start_fidelity), FIDELITY_ORDER.index(highest)
        )
        stop = FIDELITY_ORDER.index(lowest)
        for fidelity in FIDELITY_ORDER[start : stop + 1]:
            lines = (  # the focus window, else the key lines (ky's `type Hooks = {` in 16k)
                (excerpt or excerpt_lines(hit) or key_lines(hit.chunk, self.options.key_terms))
                if fidelity == Fidelity.EXCERPT
                else None
            )
            if fidelity == Fidelity.EXCERPT and lines is None:
                continue
            if fidelity == Fidelity.PATH and not self.options.path_entries:
                continue
            if self.spent + floor_cost(hit.chunk, fidelity, lines) > self.options.budget:
                continue
            content, cost = self.render(hit.chunk, fidelity, lines)
            if fidelity != Fidelity.PATH and not content.strip():
                self.dropped.append(Dropped(hit, DropReason.EMPTY))
                return False
            header = (
                FILE_HEADER
                if fidelity != Fidelity.PATH and hit.chunk.path not in self.headers
                else 0
            )
            if fidelity in SHORTENED and start > 0:  # the ladder began below full
                fidelity, content, cost = self._whole_if_as_cheap(
                    hit, fidelity, content, cost, header
                )
            cost += header  # the first chunk of a file also pays for its header
            if self.spent + cost <= self.options.budget:
                reason = self._step_reason(fidelity, start, highest)
                if reason is not None and stepped is not None:
                    reason = stepped
                self.chosen.append(Choice(hit, fidelity, content, cost, why, lines, reason))
                self.spent += cost
                if why.counts_toward_cap:
                    self.per_file[hit.chunk.path] += 1
                self.headers.add(hit.chunk.path)
                return True
        if note:
            self.dropped.append(Dropped(hit, DropReason.NO_ROOM))
        return False

    def make_way(self, hit: ScoredChunk, *, whole: bool = False) -> bool:
        """Let in a hit its file's cap (or the budget) turned away in place of that file's
        lowest-scored entries picked for their score, as few as it takes, when each scores below
        it and it then goes in showing as much: in full or as its excerpt for entries shown in
        full, else at no lower fidelity than the best of them (whole: in full only).  The
        entries taken out are dropped as displaced.  False, and nothing changed, when no such
        exchange exists."""
        weaker = self._weakest_first(hit)
        room = self.options.budget - self.spent
        lines = excerpt_lines(hit)
        for count in range(1, len(weaker) + 1):
            taken = weaker[:count]
            floor = Fidelity.FULL if whole else _replacement_floor(taken)
            room += taken[-1].tokens
            if room < min(floor_cost(hit.chunk, f, lines) for f in _down_to(floor)):
                continue  # not even its cheapest allowed form fits in what they free
            saved = self._snapshot()
            for entry in taken:  # by chunk: an heir of a file's header is a new entry
                self._take_out(entry)
            if not self.capped(hit) and self.try_add(hit, PickReason.SCORE, floor, note=False):
                self.dropped.extend(Dropped(c.hit, DropReason.DISPLACED) for c in taken)
                return True
            self._restore(saved)
        return False

    def declare(self, hit: ScoredChunk, *, capped: bool) -> bool:
        """Let in a hit left out as its declaration line (its signature, or its stub) in place of
        as few weaker entries picked for their score as it takes, weakest first (its own file's
        first when capped), never a file's last entry showing code.  Those taken out are dropped
        as displaced (its file's) or as having made room (another file's).  False, and nothing
        changed, when it does not fit even so."""
        path = hit.chunk.path
        code_entries = Counter(c.hit.chunk.path for c in self.chosen if c.fidelity in SHOWS_CODE)
        weaker = sorted(
            (c for c in self.chosen if c.why in DISPLACEABLE and c.hit.score < hit.score),
            key=lambda c: (capped and c.hit.chunk.path != path, c.hit.score),
        )
        saved = self._snapshot()
        taken: list[Choice] = []
        for entry in weaker:
            other = entry.hit.chunk.path != path
            if entry.fidelity in SHOWS_CODE and code_entries[entry.hit.chunk.path] <= 1:
                continue  # a file's last entry showing code stays (its own file's too)
            if capped and not taken and other:
                break  # the cap holds: the first to go is its own file's
            self._take_out(entry)
            taken.append(entry)
            if entry.fidelity in SHOWS_CODE:
                code_entries[entry.hit.chunk.path] -= 1
            if self.spent + MIN_ENTRY > self.options.budget or self.capped(hit):
                continue
            if self._add_declaration(hit):
                for c in taken:
                    mine = c.hit.chunk.path == path
                    self.dropped.append(
                        Dropped(c.hit, DropReason.DISPLACED if mine else DropReason.MADE_ROOM)
                    )
                return True
        self._restore(saved)
        return False

    def show_key_lines(self, entry: Choice) -> bool:
        """Show a top hit's declaration line as the excerpt of its key lines instead, in place
        of as few of its file's weaker entries picked for their score as that takes, weakest
        first.  False, and nothing changed, when they cannot free enough."""
        hit = entry.hit
        current = next((c for c in self.chosen if c.hit.chunk.id == hit.chunk.id), None)
        lines = key_lines(hit.chunk, self.options.key_terms)
        if lines is None or current is None:  # current: gone to make room for a better one
            return False
        saved = self._snapshot()
        self._remove(current)
        weaker = self._weakest_first(hit)
        for count in range(len(weaker) + 1):
            if count:
                self._take_out(weaker[count - 1])
            shown = self.try_add(
                hit, entry.why, Fidelity.EXCERPT, highest=Fidelity.EXCERPT, note=False,
                stepped=StepReason.NO_ROOM, excerpt=lines,
            )  # fmt: skip
            if shown:
                self.dropped.extend(Dropped(c.hit, DropReason.DISPLACED) for c in weaker[:count])
                return True
        self._restore(saved)
        return False

    def in_place_of_its_file(self, hit: ScoredChunk) -> bool:
        """Let in a top hit `declare` could not, in place of as few of its file's weaker entries
        picked for their score as it takes, weakest first (they were its file's last entries
        showing code, which declare keeps): as make_way lets it in, else as the longest stretch
        of its key lines (or of its first lines, for a task none of its lines names), down to
        MIN_KEY_LINES, that fits, so that its file still shows code, a better chunk's; else as
        its declaration line in their place.  False, and nothing changed, when none fits."""
        if self.make_way(hit):
            return True
        weaker = self._weakest_first(hit)
        saved = self._snapshot()
        for count, entry in enumerate(weaker, start=1):
            self._take_out(entry)
            if self.capped(hit):
                continue
            for length in range(KEY_LINES, MIN_KEY_LINES - 1, -1):
                lines = lines_to_show(hit.chunk, self.options.key_terms, length)
                if lines is None:
                    continue  # a shorter stretch may be shorter than the chunk
                shown = self.try_add(
                    hit, PickReason.SCORE, Fidelity.EXCERPT, highest=Fidelity.EXCERPT,
                    note=False, stepped=StepReason.NO_ROOM, excerpt=lines,
                )  # fmt: skip
                if shown:
                    gone = weaker[:count]
                    self.dropped.extend(Dropped(c.hit, DropReason.DISPLACED) for c in gone)
                    return True
        self._restore(saved)
        return self._declared_in_place_of_its_file(hit, weaker)

    def _declared_in_place_of_its_file(self, hit: ScoredChunk, weaker: list[Choice]) -> bool:
        """Let in a top hit as its declaration line in place of as few of its file's weaker
        entries as it takes, weakest first, where not even MIN_KEY_LINES of it fit in what they
        free: the file shows where the better chunk is rather than the weaker code.  False, and
        nothing changed, when it does not fit even so."""
        saved = self._snapshot()
        for count, entry in enumerate(weaker, start=1):
            self._take_out(entry)
            if self.capped(hit):
                continue
            if self._add_declaration(hit):
                gone = weaker[:count]
                self.dropped.extend(Dropped(c.hit, DropReason.DISPLACED) for c in gone)
                return True
        self._restore(saved)
        return False

    def _add_declaration(self, hit: ScoredChunk) -> bool:
        """Add a hit left out for room as its signature, else its stub, if one fits."""
        return self.try_add(
            hit, PickReason.SCORE, Fidelity.STUB, highest=Fidelity.SIGNATURE, note=False,
            stepped=StepReason.NO_ROOM,
        )  # fmt: skip

    def show_used_type(self, hit: ScoredChunk) -> bool:
        """Show a type the picked code uses, added as its signature, in full (or as its
        excerpt) instead, as a hit picked for its score, when its file's cap and the room
        left hold it (slim's HttpException stayed a signature all pack long while weaker
        chunks went in whole).  False, and nothing changed, when they do not."""
        current = next((c for c in self.chosen if c.hit.chunk.id == hit.chunk.id), None)
        if current is None or current.why is not PickReason.USED_TYPE:
            return False
        saved = self._snapshot()
        self._remove(current)
        if not self.capped(hit) and self.try_add(
            hit, PickReason.SCORE, Fidelity.EXCERPT, note=False
        ):
            return True
        self._restore(saved)
        return False

    def show_whole(self, entry: Choice) -> bool:
        """Show an entry stepped down for want of room whole instead, in place of its file's
        weaker entries (make_way).  False, and nothing changed, when they cannot free enough."""
        saved = self._snapshot()
        self._remove(entry)
        if self.make_way(entry.hit, whole=True):
            return True
        self._restore(saved)
        return False

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            self.spent, Counter(self.per_file), set(self.headers), list(self.chosen),
            len(self.dropped),
        )  # fmt: skip

    def _restore(self, saved: _Snapshot) -> None:
        self.spent, self.per_file, self.headers = saved.spent, saved.per_file, saved.headers
        self.chosen = saved.chosen
        del self.dropped[saved.dropped :]

    def _weakest_first(self, hit: ScoredChunk) -> list[Choice]:
        """The entries of the hit's file picked for their score that score below it, the
        weakest first (of two alike, the one further down the file)."""
        weaker = _weaker_of_its_file(self, hit)
        return sorted(weaker, key=lambda c: (c.hit.score, -c.hit.chunk.start_line))

    def _take_out(self, entry: Choice) -> None:
        """Take out the entry of the chunk that entry shows, as it is now (by chunk: an heir of
        a file's header is a new entry)."""
        self._remove(next(c for c in self.chosen if c.hit.chunk.id == entry.hit.chunk.id))

    def _remove(self, entry: Choice) -> None:
        """Take an entry out; when it paid its file's header the file's next entry pays it."""
        path = entry.hit.chunk.path
        index = self.chosen.index(entry)
        del self.chosen[index]
        self.spent -= entry.tokens
        if entry.why.counts_toward_cap:
            self.per_file[path] -= 1
        same = [i for i, c in enumerate(self.chosen) if c.hit.chunk.path == path]
        earlier = any(i < index for i in same)
        if earlier or entry.fidelity == Fidelity.PATH:
            return
        later = [i for i in same if self.chosen[i].fidelity != Fidelity.PATH]
        if later:
            heir = self.chosen[later[0]]
            self.chosen[later[0]] = replace(heir, tokens=heir.tokens + FILE_HEADER)
            self.spent += FILE_HEADER
        elif not same:
            self.headers.discard(path)

    def _whole_if_as_cheap(
        self, hit: ScoredChunk, fidelity: Fidelity, content: str, cost: int, header: int
    ) -> tuple[Fidelity, str, int]:
        """The chunk in full where that costs about what its signature or stub does and fits
        (a function of a few lines: `// ... line 787 elided` hid as much as it showed)."""
        whole, whole_cost = self.render(hit.chunk, Fidelity.FULL)
        fits = self.spent + whole_cost + header <= self.options.budget
        if whole.strip() and fits and whole_cost - cost <= max(WHOLE_SLACK, (cost + header) // 10):
            return Fidelity.FULL, whole, whole_cost
        return fidelity, content, cost

    def _step_reason(self, fidelity: Fidelity, start: int, highest: Fidelity) -> StepReason | None:
        """Why an entry is below full: where its ladder started, or for want of room."""
        if fidelity == Fidelity.FULL:
            return None
        if FIDELITY_ORDER.index(fidelity) > start:
            return StepReason.NO_ROOM
        if FIDELITY_ORDER.index(self.options.start_fidelity) == start:
            return StepReason.SMALL_BUDGET
        if highest == Fidelity.SIGNATURE:
            return StepReason.TYPE_SIGNATURE
        return StepReason.LONG_LEAD


def _replacement_floor(taken: Sequence[Choice]) -> Fidelity:
    """The lowest fidelity a hit may take in place of entries: their best, but an excerpt
    may stand in for entries shown in full (it shows the lines of a better chunk)."""
    best = min(FIDELITY_ORDER.index(c.fidelity) for c in taken)
    return FIDELITY_ORDER[max(best, FIDELITY_ORDER.index(Fidelity.EXCERPT))]


def _down_to(lowest: Fidelity) -> tuple[Fidelity, ...]:
    """The fidelities from full down to lowest."""
    return FIDELITY_ORDER[: FIDELITY_ORDER.index(lowest) + 1]


def select(hits: Sequence[ScoredChunk], options: SelectOptions, render: Render) -> Selection:
    """Fill the budget: mandatory chunks, used types, then the rest by priority."""
    whole = _shown_whole(hits, options)
    duplicates = _near_duplicates(hits, whole)
    state = _Budget(options, render)
    pending = [h for h in hits if h.chunk.id not in duplicates]
    copies: dict[str, list[ScoredChunk]] = {}  # a kept chunk's id -> its near-duplicates
    for h in hits:
        twin = duplicates.get(h.chunk.id)
        if twin is not None:
            state.dropped.append(Dropped(h, DropReason.NEAR_DUPLICATE, twin=twin))
            copies.setdefault(twin, []).append(h)
    top_score = max((h.score for h in pending), default=0.0)
    _add_named(state, [h for h in pending if h.named_by_task], top_score)
    _add_whole_files(state, [h for h in pending if not h.named_by_task], whole)
    _add_leads(state, [h for h in pending if not h.named_by_task])
    _add_companion_tests(state, [h for h in pending if not h.named_by_task])
    taken = {c.hit.chunk.id for c in state.chosen}
    pending = [h for h in pending if h.chunk.id not in taken]
    type_limit = max(MIN_TYPE_COST, int(TYPE_SHARE * options.budget))
    types_room = state.spent + int(TYPES_BUDGET_SHARE * options.budget)
    as_types: set[str] = set()  # in as signatures, still in the running at their own score
    for hit in _types_used(state.chosen, pending):
        cost = render(hit.chunk, Fidelity.SIGNATURE)[1]
        if state.capped(hit) or cost > type_limit or state.spent + cost > types_room:
            continue  # a type that costs that much competes on its own score instead
        if state.try_add(hit, PickReason.USED_TYPE, Fidelity.SIGNATURE, highest=Fidelity.SIGNATURE):
            as_types.add(hit.chunk.id)
    position = {h.chunk.id: i for i, h in enumerate(hits)}
    for best in _by_priority(pending, state, position):
        if best.chunk.id in as_types:
            state.show_used_type(best)  # its own score's turn: in full, where room holds it
        elif state.spent + MIN_ENTRY > options.budget:
            state.dropped.append(Dropped(best, DropReason.BUDGET_FULL))
        elif state.capped(best):
            if not (options.displace and state.make_way(best)):
                state.dropped.append(
                    Dropped(best, DropReason.PER_FILE_CAP, options.max_chunks_per_file)
                )
                _add_a_copy(state, best, copies.get(best.chunk.id, ()))
        else:
            state.try_add(best, PickReason.SCORE)
    if options.displace:
        _keep_file_order(state)
        _keep_better_hits(state)
    if not options.strict_cap:
        _fill_leftover(state, position)
    return Selection(tuple(state.chosen), drops_once_each(state.chosen, state.dropped), state.spent)


def drops_once_each(chosen: Sequence[Choice], dropped: Sequence[Dropped]) -> tuple[Dropped, ...]:
    """Each chunk turned away once, with the reason of its last turn (a chunk is tried again
    by later steps), and none that a later step let in: `--explain` accounts for every
    candidate exactly once."""
    taken = {c.hit.chunk.id for c in chosen}
    last: dict[str, Dropped] = {}
    for drop in dropped:
        if drop.hit.chunk.id not in taken:
            last.pop(drop.hit.chunk.id, None)
            last[drop.hit.chunk.id] = drop
    return tuple(last.values())


def _near_duplicates(hits: Sequence[ScoredChunk], whole: frozenset[str]) -> dict[str, str]:
    """Near-duplicates of chunks kept before them: a file shown whole keeps its copy of a
    text, then a file that is not a copy of others (duplicates.copy_holders), then the best."""
    ordered = sorted(hits, key=lambda h: h.chunk.path not in whole)
    duplicates = near_duplicates(ordered)
    holders = copy_holders(ordered, duplicates)
    if not holders:
        return duplicates
    return near_duplicates(
        sorted(ordered, key=lambda h: (h.chunk.path not in whole, h.chunk.path in holders))
    )


def _add_a_copy(state: _Budget, capped: ScoredChunk, copies: Sequence[ScoredChunk]) -> None:
    """A chunk its file's cap turned away is shown as its best near-duplicate in another file
    that has room (a generated single header's copy capped, its source file's own): the copy
    takes its place as a hit picked for its score, and the capped chunk and the other copies
    are its duplicates, so room left over later does not pack the same text twice."""
    for copy in copies:
        if not state.capped(copy) and state.try_add(copy, PickReason.SCORE, note=False):
            shown_as = copy.chunk.id
            state.dropped = [
                _as_a_copy_of(d, capped.chunk.id, shown_as)
                for d in state.dropped
                if d.hit.chunk.id != shown_as
            ]
            return


def _as_a_copy_of(drop: Dropped, capped: str, shown_as: str) -> Dropped:
    """A drop once the capped chunk is shown as its copy shown_as: the capped chunk and its
    other copies are near-duplicates of shown_as."""
    if drop.hit.chunk.id == capped:
        return Dropped(drop.hit, DropReason.NEAR_DUPLICATE, twin=shown_as)
    return replace(drop, twin=shown_as) if drop.twin == capped else drop


def _shown_whole(hits: Sequence[ScoredChunk], options: SelectOptions) -> frozenset[str]:
    """The files to show whole that are small enough for it, counting every chunk of theirs:
    their copy of a chunk is the one kept when another file holds a near-duplicate (a generated
    single header, a vendored copy), or the file would be shown with holes where the task's
    code is."""
    size: dict[str, int] = {}
    for hit in hits:
        if hit.chunk.path in options.whole_files and not hit.chunk.summary:  # its members count
            size[hit.chunk.path] = size.get(hit.chunk.path, 0) + hit.chunk.tokens
    room = options.whole_share * options.budget
    return frozenset(path for path, tokens in size.items() if tokens <= room)


def _add_named(state: _Budget, hits: Sequence[ScoredChunk], top_score: float) -> None:
    """What the task names: every mandatory chunk, every chunk holding a line it names and
    every chunk whose symbol it names that scores at least NAMED_FLOOR of the best hit (a
    test named after a word of the task's code competes on its score), then the chunks of
    the files it names, best first, while they take at most NAMED_FILE_SHARE of the budget."""
    room = NAMED_FILE_SHARE * state.options.budget
    floor = NAMED_FLOOR * top_score
    for hit in hits:
        if hit.mandatory or hit.points_at_line or (hit.points_at and hit.score >= floor):
            state.try_add(hit, PickReason.CHANGED if hit.mandatory else PickReason.NAMED)
    for hit in hits:
        if hit.required:
            continue
        header = 0 if hit.chunk.path in state.headers else FILE_HEADER
        if state.spent + state.render(hit.chunk, Fidelity.FULL)[1] + header <= room:
            state.try_add(hit, PickReason.NAMED_FILE, Fidelity.FULL, note=False)


def _add_whole_files(state: _Budget, hits: Sequence[ScoredChunk], whole: frozenset[str]) -> None:
    """The files the task is clearly about, whole and in line order, while they are cheap: a
    file too big to show whole is not shown as the part of it other files hold no copy of."""
    chosen = {c.hit.chunk.id for c in state.chosen}
    for path in state.options.whole_files:
        rest = sorted(
            (h for h in hits if h.chunk.path == path and h.chunk.id not in chosen),
            key=lambda h: h.chunk.start_line,
        )
        size = sum(h.chunk.tokens for h in rest)
        if (
            path not in whole
            or not rest
            or (state.spent + size > state.options.whole_share * state.options.budget)
        ):
            continue
        for hit in rest:
            state.try_add(hit, PickReason.FOCUS_FILE, Fidelity.FULL, note=False)


def _add_leads(state: _Budget, hits: Sequence[ScoredChunk]) -> None:
    """The few best hits, whole: a big function the task is about should not lose its place
    to many small, weaker ones just because it costs more per token."""
    if not hits:
        return
    chosen = {c.hit.chunk.id for c in state.chosen}
    floor = LEAD_SHARE * max(h.score for h in hits)
    count = max(LEAD_COUNT, state.options.budget // LEAD_TOKENS)
    leads = sorted(hits, key=lambda h: -h.score)[:count]
    # in a signatures-only pack the leads go in as what it shows (before, the ladder of one
    # rung, full, was below its start: no lead went in, and cheap weak chunks came first)
    shown = max(Fidelity.FULL, state.options.start_fidelity, key=FIDELITY_ORDER.index)
    for hit in leads:
        if hit.score < floor or hit.chunk.id in chosen or state.capped(hit):
            continue
        if shown != Fidelity.FULL:
            state.try_add(hit, PickReason.LEAD, shown, note=False)
        elif hit.chunk.tokens <= LEAD_MAX_SHARE * state.options.budget:
            state.try_add(hit, PickReason.LEAD, Fidelity.FULL, note=False)
        elif excerpt_lines(hit) is not None:
            state.try_add(
                hit, PickReason.LEAD, Fidelity.EXCERPT, highest=Fidelity.EXCERPT, note=False
            )


def _add_companion_tests(state: _Budget, hits: Sequence[ScoredChunk]) -> None:
    """For the best source files, the best-scored chunk of their test file: a change usually
    comes with a test next to the existing ones."""
    chosen = {c.hit.chunk.id for c in state.chosen}
    sources = list(dict.fromkeys(h.chunk.path for h in hits if not is_test_path(h.chunk.path)))
    in_hits = {h.chunk.path for h in hits}
    companions = companion_tests(sources[:COMPANION_SOURCES], in_hits)
    for source in sources[:COMPANION_SOURCES]:
        for test_path in companions.get(source, [])[:1]:
            best = next(
                (h for h in hits if h.chunk.path == test_path and h.chunk.id not in chosen),
                None,
            )
            if best is None or best.chunk.tokens > COMPANION_MAX_SHARE * state.options.budget:
                continue
            if state.try_add(best, PickReason.COMPANION_TEST, Fidelity.FULL, note=False):
                chosen.add(best.chunk.id)


def _by_priority(
    pending: Sequence[ScoredChunk], state: _Budget, position: dict[str, int]
) -> Iterator[ScoredChunk]:
    """Hits in priority order; a priority drops as its file gains chunks (lazy heap)."""

    def key(hit: ScoredChunk) -> tuple[float, int]:
        return (
            -_priority(hit, hit.chunk.tokens, state.per_file[hit.chunk.path]),
            position[hit.chunk.id],
        )

    heap = [(key(h), h.chunk.id, h) for h in pending]
    heapq.heapify(heap)
    while heap:
        stored, ident, hit = heapq.heappop(heap)
        current = key(hit)
        if current != stored:
            heapq.heappush(heap, (current, ident, hit))
            continue
        yield hit


def _keep_file_order(state: _Budget) -> None:
    """Chunks turned away or stepped down for want of room while weaker entries of their file
    went in (cheap ones win the per-token ordering), best first: each takes the place of as
    many of those as it needs when what they free holds it whole.  Only whole: as an excerpt
    in place of whole entries it lost changed lines on the development split (README)."""
    files = {c.hit.chunk.path for c in state.chosen if c.why in DISPLACEABLE}
    turned_away: list[Dropped | Choice] = [
        d for d in state.dropped if d.reason in TURNED_AWAY_FOR_ROOM and d.hit.chunk.path in files
    ]
    stepped = [c for c in state.chosen if c.stepped is StepReason.NO_ROOM and c.why in DISPLACEABLE]
    for item in sorted([*turned_away, *stepped], key=lambda item: -item.hit.score):
        if isinstance(item, Dropped):
            if state.make_way(item.hit, whole=True):
                state.dropped.remove(item)
        elif any(c is item for c in state.chosen):  # unless it made way for a better one
            state.show_whole(item)


TURNED_AWAY_FOR_ROOM = (DropReason.BUDGET_FULL, DropReason.NO_ROOM)
LEFT_OUT = (*TURNED_AWAY_FOR_ROOM, DropReason.PER_FILE_CAP)
TOP_RANKED = 20  # the ranks issue 18's rule holds for (scripts/bench_selection_rule.py counts it)


def top_ranked_floor(chosen: Iterable[Choice], dropped: Iterable[Dropped]) -> float:
    """The lowest score among the TOP_RANKED best of a selection's entries and drops (0 when
    there are fewer): the hits issue 18's rule holds for score at least this."""
    scores = [c.hit.score for c in chosen] + [d.hit.score for d in dropped]
    best = heapq.nlargest(TOP_RANKED, scores)
    return best[-1] if len(best) == TOP_RANKED else 0.0


def _keep_better_hits(state: _Budget) -> None:
    """Issue 18's rule: none of the ranking's TOP_RANKED best chunks stays out (for room or by
    its file's cap) while a weaker entry of its file picked for its score is packed.  Each such
    chunk, best first, goes in as its declaration line in place of as few weaker entries as that
    takes (_Budget.declare): it tells where code the ranking put above the packed code is, for a
    few tokens; where every entry in reach is its file's last code, it takes its own file's
    weaker entries' place as the key lines that fit, else as its declaration line
    (_Budget.in_place_of_its_file).  Whole or as an excerpt in place of other files' entries it
    cost lines at 4k and recall on both splits (README).  Then each of those chunks shown as its
    declaration line for want of room, best first, shows its key lines instead (pack.key_lines)
    where its own file's weaker entries free room for them (_Budget.show_key_lines): lines
    +0.006 / +0.005 / +0.001 on the development split (README)."""
    floor = top_ranked_floor(state.chosen, state.dropped)
    for drop in sorted(
        (d for d in state.dropped if d.reason in LEFT_OUT), key=lambda d: -d.hit.score
    ):
        if drop.hit.score < floor or not _weaker_of_its_file(state, drop.hit):
            continue
        capped = drop.reason is DropReason.PER_FILE_CAP
        if state.declare(drop.hit, capped=capped) or state.in_place_of_its_file(drop.hit):
            state.dropped.remove(drop)
    for entry in sorted(
        (c for c in state.chosen if c.fidelity in SHORTENED and c.stepped is StepReason.NO_ROOM),
        key=lambda c: -c.hit.score,
    ):
        if entry.hit.score >= floor and entry.why in DISPLACEABLE:
            state.show_key_lines(entry)


def _weaker_of_its_file(state: _Budget, hit: ScoredChunk) -> list[Choice]:
    """The entries of the hit's file picked for their score that score below it."""
    return [
        c
        for c in state.chosen
        if c.hit.chunk.path == hit.chunk.path and c.why in DISPLACEABLE and c.hit.score < hit.score
    ]


def _fill_leftover(state: _Budget, position: dict[str, int]) -> None:
    """Room left after every file had its share: more chunks of capped files (those held
    back by the cap, or that made way or room for a better chunk), best first and in full
    only, while no better chunk of their file waits for room: a file's chunk turned away for
    room, or too big for what is left, keeps its file's weaker chunks out."""
    capped = [
        d.hit for d in state.dropped if d.reason in (*HELD_BACK_BY_THE_CAP, DropReason.MADE_ROOM)
    ]
    capped.sort(key=lambda h: (-h.score, position[h.chunk.id]))
    waiting: dict[str, float] = {}  # the best score of each file's chunks left waiting
    for drop in state.dropped:
        if drop.reason in TURNED_AWAY_FOR_ROOM:
            path = drop.hit.chunk.path
            waiting[path] = max(waiting.get(path, 0.0), drop.hit.score)
    for hit in capped:
        if state.spent + MIN_ENTRY > state.options.budget:
            break
        path = hit.chunk.path
        if hit.score < waiting.get(path, 0.0):
            continue
        if not state.try_add(hit, PickReason.LEFTOVER, Fidelity.FULL, note=False):
            waiting[path] = max(waiting.get(path, 0.0), hit.score)
