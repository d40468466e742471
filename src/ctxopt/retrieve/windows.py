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


@dataclass
class _WindowStats:
    path: str
    start_line: int
    end_line: int
    length: int
    counts: Counter[str]


def _windows_of(path: str, lines: Sequence[str], wanted: frozenset[str]) -> list[_WindowStats]:
    """Term counts of each window, summed from per-stride blocks (each line is read once)."""
    per_line: list[tuple[int, tuple[str, ...]]] = []
    seen: dict[str, tuple[int, tuple[str, ...]]] = {}  # lines repeat (braces, blank lines)
    for line in lines:
        stats = seen.get(line)
        if stats is None:
            found = terms_of(line)
            stats = seen[line] = (len(found), tuple(t for t in found if t in wanted))
        per_line.append(stats)
    blocks: list[tuple[int, Counter[str]]] = []
    for first in range(0, len(lines), WINDOW_STRIDE):
        counts: Counter[str] = Counter()
        length = 0
        for n, hits in per_line[first : first + WINDOW_STRIDE]:
            length += n
            if hits:
                counts.update(hits)
        blocks.append((length, counts))
    starts = range(0, max(1, len(lines) - WINDOW_LINES + WINDOW_STRIDE), WINDOW_STRIDE)
    out: list[_WindowStats] = []
    for start in starts:
        counts = Counter()
        length = 0
        for n, block in blocks[start // WINDOW_STRIDE : (start + WINDOW_LINES) // WINDOW_STRIDE]:
            length += n
            counts.update(block)
        end = min(len(lines), start + WINDOW_LINES)
        out.append(_WindowStats(path, start + 1, end, length, counts))
    return out


def rank_windows(task: str, files: Mapping[str, Sequence[str]]) -> list[Window]:
    """Windows of the files with a positive BM25 score for the task, best first.

    Document frequencies come from these files' windows only: the files retrieval picked,
    so a word common to all of them weighs little.
    """
    wanted = task_terms(task)
    if not wanted:
        return []
    stats = [w for path, lines in files.items() for w in _windows_of(path, lines, wanted)]
    if not stats:
        return []
    average = sum(w.length for w in stats) / len(stats) or 1.0
    frequency: Counter[str] = Counter(t for w in stats for t in w.counts)
    idf = {t: math.log(1.0 + (len(stats) - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
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
