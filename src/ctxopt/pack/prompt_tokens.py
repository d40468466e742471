"""Exact token counts of prompts, from counts of their pieces kept across calls.

cl100k splits text into pieces with a regular expression before it encodes each piece on
its own, and no piece runs across a line break that is followed by a character other than
white space: there, the text before ends with a line break (every pattern that can end on
one ends there, as what follows is not white space) and the text after starts a new piece
whatever came before (no pattern looks back).  So the count of a prompt is the sum of the
counts of its stretches between such points, exactly (tests/pack/test_prompt_tokens.py
checks it against whole-text counts).  A prompt is rendered several times while it is
fitted to its budget, and the next call shows many of the same chunks: their stretches are
counted once and remembered.
"""

from __future__ import annotations

import re
import threading

from ctxopt import tokens

_SPLIT = re.compile(r"(?<=\n)(?=\S)")
MAX_CHARS = 32_000_000  # what the remembered stretches may hold; past it they are dropped


class _Counts:
    def __init__(self) -> None:
        self.known: dict[str, int] = {}
        self.chars = 0
        self.lock = threading.Lock()

    def clear(self) -> None:
        with self.lock:
            self.known.clear()
            self.chars = 0


_COUNTS = _Counts()


def count(text: str) -> int:
    """Exactly `tokens.count(text)`."""
    if not text:
        return 0
    known = _COUNTS.known
    total = 0
    new: dict[str, int] = {}
    for piece in _SPLIT.split(text):
        found = known.get(piece)
        if found is None:
            found = new.get(piece)
            if found is None:
                found = new[piece] = tokens.count(piece)
        total += found
    if new:
        _remember(new)
    return total


def _remember(new: dict[str, int]) -> None:
    size = sum(len(piece) for piece in new)
    with _COUNTS.lock:
        if _COUNTS.chars + size > MAX_CHARS:
            _COUNTS.known.clear()
            _COUNTS.chars = 0
        _COUNTS.known.update(new)
        _COUNTS.chars += size


def forget() -> None:
    """Drop every remembered count (tests)."""
    _COUNTS.clear()
