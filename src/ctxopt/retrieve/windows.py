"""Where in a file the task's words gather: BM25 over overlapping line windows (pure).

Chunk-level full-text search favours short chunks (an import block that names two of the
task's words outranks the function that uses all of them).  Scoring fixed-size line windows
of the files retrieval already points at tells which stretch of each file the task is about,
whatever the chunk sizes; a chunk then gets the score of the best window it overlaps.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ctxopt.retrieve.entities import STOPWORDS
from ctxopt.terms import split_identifier

WINDOW_LINES = 60
WINDOW_STRIDE = 30  # WINDOW_LINES is a multiple of it: windows are sums of stride blocks
K1 = 1.2
B = 0.75

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Window:
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int
    score: float


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
        for s in _window_starts(len(lines))
    )
    return FileTerms(
        len(lines), tuple(lengths), {t: tuple(p) for t, p in postings.items()}, windows
    )


@dataclass
class _WindowStats:
    path: str
    start_line: int
    end_line: int
    length: int
    counts: dict[str, int]  # the task's terms found, in order of first occurrence


def _window_starts(lines: int) -> range:
    return range(0, max(1, lines - WINDOW_LINES + WINDOW_STRIDE), WINDOW_STRIDE)


def _windows_of(
    path: str, terms: FileTerms, wanted: frozenset[str]
) -> tuple[int, int, list[_WindowStats]]:
    """The file's window count, their summed length, and the windows holding a task term
    with their counts (a window is WINDOW_LINES // WINDOW_STRIDE consecutive blocks)."""
    span = WINDOW_LINES // WINDOW_STRIDE
    starts = _window_starts(terms.lines)
    hits: dict[int, dict[str, list[int]]] = {}  # window -> term -> [count, first position]
    for term in wanted:
        for block, count, at in terms.postings.get(term, ()):
            for window in range(max(0, block - span + 1), min(block, len(starts) - 1) + 1):
                entry = hits.setdefault(window, {}).get(term)
                if entry is None:
                    hits[window][term] = [count, at]
                else:
                    entry[0] += count
                    entry[1] = min(entry[1], at)
    out: list[_WindowStats] = []
    for window in sorted(hits):
        start = starts[window]
        found = hits[window]
        counts = {t: found[t][0] for t in sorted(found, key=lambda t: found[t][1])}
        end = min(terms.lines, start + WINDOW_LINES)
        out.append(_WindowStats(path, start + 1, end, terms.window_lengths[window], counts))
    return len(starts), sum(terms.window_lengths), out


def rank_windows(task: str, files: Mapping[str, Sequence[str]]) -> list[Window]:
    """Windows of the files with a positive BM25 score for the task, best first.

    Document frequencies come from these files' windows only: the files retrieval picked,
    so a word common to all of them weighs little.  Each file's term statistics come from
    `window_cache` (kept per file content for the life of the process).
    """
    from ctxopt.retrieve.window_cache import cached_file_terms

    wanted = task_terms(task)
    if not wanted:
        return []
    count = 0
    length = 0
    stats: list[_WindowStats] = []
    for path, lines in files.items():
        windows, total, found = _windows_of(path, cached_file_terms(lines), wanted)
        count += windows
        length += total
        stats.extend(found)
    if not count:
        return []
    average = length / count or 1.0
    frequency: Counter[str] = Counter(t for w in stats for t in w.counts)
    idf = {t: math.log(1.0 + (count - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
    ranked: list[Window] = []
    for w in stats:
        norm = K1 * (1.0 - B + B * w.length / average)
        score = sum(idf[t] * tf * (K1 + 1.0) / (tf + norm) for t, tf in w.counts.items())
        if score > 0:
            ranked.append(Window(w.path, w.start_line, w.end_line, score))
    ranked.sort(key=lambda w: (-w.score, w.path, w.start_line))
    return ranked


def best_window(
    windows: Iterable[Window], path: str, start_line: int, end_line: int
) -> Window | None:
    """The best-scored window of path that overlaps the line range, or None."""
    overlapping = [
        w
        for w in windows
        if w.path == path and w.start_line <= end_line and start_line <= w.end_line
    ]
    return max(overlapping, key=lambda w: (w.score, -w.start_line), default=None)
