"""The labels a reader sees above each entry of a pack: one clean name per chunk.

A long declaration cut into pieces is named `name`, `name#2`... by the chunker; a merged
entry names it once.  Module-level code is named after its file, also once.  Overloads
(several declarations of one name in one entry) are numbered: `f (1), f (2)`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from ctxopt.languages.elision import elided_ranges
from ctxopt.types import Choice, Chunk, ChunkKind, Fidelity
from ctxopt.wording import line_span, lines_words, shown_path

_PIECE = re.compile(r"^(.*\S)#(\d+)$")  # the chunker's name of a piece after the first


def chunk_place(chunk: Chunk) -> str:
    """Where a chunk is, as a reader cites it: `path:start-end`."""
    return f"{shown_path(chunk.path)}:{line_span(chunk.start_line, chunk.end_line)}"


def chunk_name(chunk: Chunk) -> str:
    """The name a reader knows a chunk by: its qualified name, else its name or kind."""
    return chunk.qualified_name or chunk.name or chunk.kind.value


def piece_of(name: str) -> tuple[str, int]:
    """(the declaration's name, piece number) of a chunk name: ("f", 2) for "f#2"."""
    found = _PIECE.match(name)
    return (found.group(1), int(found.group(2))) if found else (name, 1)


def shown_name(chunk: Chunk) -> str:
    """A chunk's name, a piece after the first saying so: `KyOptions (part 2)`."""
    base, part = piece_of(chunk_name(chunk))
    return f"{base} (part {part})" if part > 1 else base


def name_fields(chunk: Chunk) -> dict[str, str | int]:
    """A chunk's name as machine output gives it: the declaration's own name, and which piece of
    it the chunk is (`{"name": "progressbar", "part": 2}`; part 1 for a whole declaration)."""
    base, part = piece_of(chunk_name(chunk))
    return {"name": base, "part": part}


def entry_names(run: Sequence[Choice]) -> list[str]:
    """One name per declaration of a merged entry, in line order: pieces of one declaration
    and module code of one file named once, overloads numbered."""
    bases = [piece_of(chunk_name(c.hit.chunk)) for c in run]
    overloads = Counter(
        base for (base, part), c in zip(bases, run, strict=True)
        if part == 1 and c.hit.chunk.kind is not ChunkKind.MODULE
    )  # fmt: skip
    names: list[str] = []
    seen: set[str] = set()
    number: Counter[str] = Counter()
    for base, part in bases:
        if overloads[base] > 1 and part == 1:
            number[base] += 1
            names.append(f"{base} ({number[base]})")
        elif base not in seen:
            names.append(base)
        seen.add(base)
    return names


def entry_label(run: Sequence[Choice]) -> str:
    """One chunk's label (kind, name, lines, how much is shown), or the names of the merged
    chunks and the lines they span."""
    outline = any(c.hit.chunk.summary for c in run if c.fidelity is not Fidelity.STUB)
    if len(run) > 1:
        shown = ", outline: member bodies left out" if outline else ""
        return (
            f"{', '.join(entry_names(run))} ({_lines(run[0].start_line, run[-1].end_line)}{shown})"
        )
    choice = run[0]
    chunk = choice.hit.chunk
    shown = "" if choice.fidelity == Fidelity.FULL else f", {choice.fidelity.value} only"
    if outline and choice.fidelity in (Fidelity.FULL, Fidelity.SIGNATURE):
        shown = ", outline: member bodies left out"
    if choice.fidelity == Fidelity.EXCERPT:
        shown = f", {_lines(choice.start_line, choice.end_line)} shown"
    span = _lines(chunk.start_line, chunk.end_line)
    return f"{chunk.kind.value} {shown_name(chunk)} ({span}{shown})"


def _lines(first: int, last: int) -> str:
    """ "lines 12-20", or "line 90" for one line."""
    return lines_words(line_span(first, last), first == last)


def elided_lines(choice: Choice) -> list[list[int]] | None:
    """The line ranges of its chunk an entry does not show: a class summary's member bodies,
    a stub's lines after its first, the lines markers stand for (an excerpt's edges, a
    signature's body); None for a summary whose file no longer holds its rows."""
    chunk = choice.hit.chunk
    if chunk.summary and choice.fidelity in (Fidelity.FULL, Fidelity.SIGNATURE):
        gaps = choice.left_out
        if gaps is None:
            return None
    elif choice.fidelity is Fidelity.PATH:
        gaps = ((chunk.start_line, chunk.end_line),)
    elif choice.fidelity is Fidelity.STUB:
        gaps = (
            ((chunk.start_line + 1, chunk.end_line),) if chunk.end_line > chunk.start_line else ()
        )
    else:
        gaps = tuple(elided_ranges(choice.content))
    return [[first, last] for first, last in gaps]
