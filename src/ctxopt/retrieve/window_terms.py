"""A file's words for window scoring, whatever the task: the terms of a text, the stride
blocks of a file and each term's counts there (pure; kept per file content by `window_cache`)."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ctxopt.languages.record import Family
from ctxopt.languages.registry import for_path
from ctxopt.retrieve.entities import STOPWORDS
from ctxopt.terms import split_identifier

WINDOW_LINES = 60
WINDOW_STRIDE = 30  # WINDOW_LINES is a multiple of it: windows are sums of stride blocks
# Code files up to this size get their windows scored.  A 920 KB header (24,766 lines) costs
# about 75 ms the first time (2 cores), then comes from window_cache; bigger files are nearly
# always generated or minified.  At 150 KB, the core modules of zod, clap and urfave/cli had
# no windows.
MAX_WINDOW_FILE_BYTES = 1_000_000
# Prose, configuration and data only up to this: a 300 KB changelog holds a window with most of
# any task's words, and every window score is relative to the best one.
MAX_PROSE_WINDOW_FILE_BYTES = 150_000

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def window_file_limit(path: str) -> int:
    """The largest size in bytes of a file at this path whose windows are scored."""
    code = for_path(path).family is Family.CODE
    return MAX_WINDOW_FILE_BYTES if code else MAX_PROSE_WINDOW_FILE_BYTES


def terms_of(text: str) -> list[str]:
    """Lower-cased words and the parts of compound identifiers, without stop words."""
    out: list[str] = []
    for word in _WORD.findall(text):
        out.extend(_word_terms(word))
    return out


@functools.lru_cache(maxsize=65536)
def _word_terms(word: str) -> tuple[str, ...]:
    parts = split_identifier(word)
    whole = word.lower()
    terms = [whole, *parts] if len(parts) > 1 else (parts or [whole])
    return tuple(t for t in terms if len(t) > 1 and t not in STOPWORDS)


def task_terms(task: str) -> frozenset[str]:
    return frozenset(terms_of(task))


@dataclass(frozen=True)
class FileTerms:
    """A file's words per stride block, whatever the task (kept per file content by
    `window_cache`): each term's blocks with its count there and the position of its first
    occurrence in the block (terms numbered through the file), and each block's length."""

    lines: int
    lengths: tuple[int, ...]  # terms per stride block
    postings: dict[str, tuple[tuple[int, int, int], ...]]  # term -> (block, count, first)
    window_lengths: tuple[int, ...]  # terms per window

    @property
    def size(self) -> int:
        """Postings held: the cache's measure of what an entry costs."""
        return sum(len(p) for p in self.postings.values()) + len(self.lengths)


def file_terms(lines: Sequence[str]) -> FileTerms:
    """The term statistics of a file's lines.  Words cannot span lines, so each block's
    words are found at once and each distinct word is split once; terms are numbered by
    their first occurrence (each block's after the block before it)."""
    lengths: list[int] = []
    postings: dict[str, list[tuple[int, int, int]]] = {}
    position = 0
    for block, first in enumerate(range(0, len(lines), WINDOW_STRIDE)):
        words = Counter(_WORD.findall("\n".join(lines[first : first + WINDOW_STRIDE])))
        counts: dict[str, int] = {}
        length = 0
        for word, times in words.items():
            found = _word_terms(word)
            length += times * len(found)
            for term in found:
                counts[term] = counts.get(term, 0) + times
        for rank, (term, count) in enumerate(counts.items()):
            postings.setdefault(term, []).append((block, count, position + rank))
        position += len(counts)
        lengths.append(length)
    span = WINDOW_LINES // WINDOW_STRIDE
    windows = tuple(
        sum(lengths[s // WINDOW_STRIDE : s // WINDOW_STRIDE + span])
        for s in window_starts(len(lines))
    )
    return FileTerms(
        len(lines), tuple(lengths), {t: tuple(p) for t, p in postings.items()}, windows
    )


def window_starts(lines: int) -> range:
    return range(0, max(1, lines - WINDOW_LINES + WINDOW_STRIDE), WINDOW_STRIDE)
