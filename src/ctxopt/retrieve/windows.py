"""Where in a file the task's words gather: BM25 over overlapping line windows (pure).

Chunk-level full-text search favours short chunks (an import block that names two of the
task's words outranks the function that uses all of them).  Scoring fixed-size line windows
of the files retrieval already points at tells which stretch of each file the task is about,
whatever the chunk sizes; a chunk then gets the score of the best window it overlaps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ctxopt.retrieve.bm25 import K1, B, idf, length_norm, term_score
from ctxopt.retrieve.window_cache import cached_file_terms
from ctxopt.retrieve.window_terms import (
    WINDOW_LINES,
    WINDOW_STRIDE,
    FileTerms,
    task_terms,
    terms_of,
    window_file_limit,
    window_starts,
)

__all__ = [
    "K1",
    "WINDOW_LINES",
    "WINDOW_STRIDE",
    "B",
    "Window",
    "WindowLookup",
    "rank_windows",
    "reach",
    "task_terms",
    "terms_of",
    "window_file_limit",
]


@dataclass(frozen=True)
class Window:
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int
    score: float


@dataclass
class _WindowStats:
    path: str
    start_line: int
    end_line: int
    length: int
    counts: dict[str, int]  # the task's terms found, in order of first occurrence


def _windows_of(
    path: str, terms: FileTerms, wanted: frozenset[str]
) -> tuple[int, int, list[_WindowStats]]:
    """The file's window count, their summed length, and the windows holding a task term
    with their counts (a window is WINDOW_LINES // WINDOW_STRIDE consecutive blocks)."""
    span = WINDOW_LINES // WINDOW_STRIDE
    starts = window_starts(terms.lines)
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
    weights = {t: idf(count, df) for t, df in frequency.items()}
    ranked: list[Window] = []
    for w in stats:
        norm = length_norm(w.length, average)
        score = sum(term_score(tf, weights[t], norm) for t, tf in w.counts.items())
        if score > 0:
            ranked.append(Window(w.path, w.start_line, w.end_line, score))
    ranked.sort(key=lambda w: (-w.score, w.path, w.start_line))
    return ranked


def reach(windows: Iterable[Window]) -> dict[str, list[tuple[int, int]]]:
    """The line ranges the windows cover in each file, overlapping ones merged."""
    by_path: dict[str, list[tuple[int, int]]] = {}
    for window in sorted(windows, key=lambda w: (w.path, w.start_line)):
        spans = by_path.setdefault(window.path, [])
        if spans and window.start_line <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], max(spans[-1][1], window.end_line))
        else:
            spans.append((window.start_line, window.end_line))
    return by_path


class WindowLookup:
    """The scored windows of each file by their first line: the best window overlapping a
    line range is found among the few that can overlap it (windows start every
    WINDOW_STRIDE lines), not by scanning every window of the file."""

    def __init__(self, windows: Iterable[Window]) -> None:
        self._by_start: dict[str, dict[int, Window]] = {}
        for window in windows:
            self._by_start.setdefault(window.path, {})[window.start_line] = window

    def best(self, path: str, start_line: int, end_line: int) -> Window | None:
        """The best-scored window of path that overlaps the line range, or None."""
        starts = self._by_start.get(path)
        if not starts:
            return None
        # a window starting at line s covers s .. s + WINDOW_LINES - 1 (or the file's end)
        first = max(0, -(-(start_line - WINDOW_LINES) // WINDOW_STRIDE))
        last = (end_line - 1) // WINDOW_STRIDE
        found = (starts.get(1 + k * WINDOW_STRIDE) for k in range(first, last + 1))
        overlapping = [w for w in found if w is not None and start_line <= w.end_line]
        return max(overlapping, key=lambda w: (w.score, -w.start_line), default=None)
