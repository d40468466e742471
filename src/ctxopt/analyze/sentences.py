"""Sentence spans in one linear pass: ends at . ! ? (and CJK stops), blank lines, headings."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SENTENCE_CHARS = 600
MIN_SENTENCE_CHARS = 20
# a Latin stop ends a sentence before a space; a CJK stop ends it even without one (Chinese
# and Japanese run sentences together: 这是第一句。这是第二句。)
_BREAK = re.compile(
    r"(?<=[.!?])[\"'”’)\]]*\s+|(?<=[。！？])[\"'”’」』)\]]*\s*"
    r"|\n[ \t]*\n+|\n(?=#{1,6}[ \t])|(?<=\n)(?=[-*•]\s)"
)


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their offsets; whitespace-only pieces dropped, long ones cut."""
    out: list[Sentence] = []
    position = 0
    for match in _BREAK.finditer(text):
        _add(text, position, match.start(), out)
        position = match.end()
    _add(text, position, len(text), out)
    return out


def _add(text: str, start: int, end: int, out: list[Sentence]) -> None:
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
                Sentence(start + lead, start + lead + len(stripped), " ".join(stripped.split()))
            )
        start = stop
