"""Sentence spans in one linear pass: ends at . ! ? (and CJK stops), blank lines, headings.

A heading line (``# Title``, and the ``# File: NAME`` line that starts each file of a
document of several) is a piece of its own, flagged ``heading``: it names a part of the
document, it says nothing the digest should quote.  So is every piece inside a fenced code
block (between two ``` or ~~~ lines), flagged ``code``: joined into one line, a block read as a
sentence ("```js const x = 1; ```") is neither prose nor code any more."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

MAX_SENTENCE_CHARS = 600
MIN_SENTENCE_CHARS = 20
# a Latin stop ends a sentence before a space; a CJK stop ends it even without one (Chinese
# and Japanese run sentences together: 这是第一句。这是第二句。)
_BREAK = re.compile(
    r"(?<=[.!?])[\"'”’)\]]*\s+|(?<=[。！？])[\"'”’」』)\]]*\s*"
    r"|\n[ \t]*\n+|\n(?=#{1,6}[ \t])|(?<=\n)(?=[-*•]\s)"
)
_HEADING = re.compile(r"#{1,6}[ \t]")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S)


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str
    heading: bool = False  # a heading line, not a sentence
    code: bool = False  # a piece of a fenced code block, not a sentence


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their offsets; whitespace-only pieces dropped, long ones cut."""
    out: list[Sentence] = []
    position = 0
    for match in _BREAK.finditer(text):
        _add_piece(text, position, match.start(), out)
        position = match.end()
    _add_piece(text, position, len(text), out)
    fences = [match.span() for match in _FENCE.finditer(text)]
    if not fences:
        return out
    return [replace(s, code=True) if _inside(s.start, fences) else s for s in out]


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= offset < end for start, end in spans)


def _add_piece(text: str, start: int, end: int, out: list[Sentence]) -> None:
    """A piece between two breaks; one that starts with a heading line (a break comes before
    every heading) is that line, then the rest."""
    lead = start + len(text[start:end]) - len(text[start:end].lstrip())
    if not _HEADING.match(text, lead):
        _add(text, start, end, out)
        return
    newline = text.find("\n", lead, end)
    line_end = end if newline == -1 else newline
    _add(text, lead, line_end, out, heading=True)
    _add(text, line_end, end, out)


def _add(text: str, start: int, end: int, out: list[Sentence], *, heading: bool = False) -> None:
    while start < end:
        stop = min(end, start + MAX_SENTENCE_CHARS)
        if stop < end:
            space = text.rfind(" ", start + MAX_SENTENCE_CHARS // 2, stop)
            stop = space if space > start else stop
        piece = text[start:stop]
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            out.append(
                Sentence(
                    start + lead,
                    start + lead + len(stripped),
                    " ".join(stripped.split()),
                    heading,
                )
            )
        start = stop
