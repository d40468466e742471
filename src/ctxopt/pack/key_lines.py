"""The few lines of a long chunk where the task's words gather most (pure).

A top-ranked chunk that cannot go in whole is shown as its declaration line, which tells
where it is but none of what it does.  Its key lines are the stretch of KEY_LINES lines
that holds the most of the task's words, rare ones (in the chunk) weighing more: shown as
an excerpt they cost a fraction of the chunk and hold the branch the task is about.  The
selection finds them when it needs them, for the few chunks it shows short (pack.select):
a chunk with no focus window that the room cannot hold whole is shown as its key lines
before its declaration line.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from ctxopt.retrieve.window_terms import task_terms, terms_of
from ctxopt.types import Chunk

KEY_LINES = 20  # the lines shown
MIN_SPAN = 2 * KEY_LINES  # a chunk shorter than this is shown whole or as its declaration
_NUMBER = re.compile(r"\b\d{3,}\b")  # a status code or an error number the task names


def key_terms(task: str) -> frozenset[str]:
    """The words of the task key lines are found by, and the numbers of three digits or more
    it names."""
    return task_terms(task) | frozenset(_NUMBER.findall(task))


def key_lines(
    chunk: Chunk, terms: frozenset[str], length: int = KEY_LINES
) -> tuple[int, int] | None:
    """The first and last file line of the chunk's best stretch of `length` lines after its
    first (shown anyway), or None: for a chunk shorter than MIN_SPAN, one whose text is not
    its lines (a summary), or when no stretch holds a word of the task."""
    rows = chunk.text.split("\n")
    span = chunk.end_line - chunk.start_line + 1
    if not terms or len(rows) != span or span < MIN_SPAN:
        return None
    found = [frozenset([*terms_of(row), *_NUMBER.findall(row)]) & terms for row in rows]
    rows_with = Counter(term for row in found for term in row)
    weight = {term: math.log(1 + span / count) for term, count in rows_with.items()}
    held: Counter[str] = Counter()  # rows holding each term in the current stretch
    best: tuple[float, int] | None = None
    for last in range(1, span):
        held.update(found[last])
        first = last - length + 1
        if first > 1:
            held.subtract(found[first - 1])
        if first < 1:
            continue
        score = sum(weight[t] * (1 + 0.1 * math.log(n)) for t, n in held.items() if n > 0)
        if score > 0 and (best is None or score > best[0]):
            best = (score, first)
    if best is None:
        return None
    start = chunk.start_line + best[1]
    return start, start + length - 1


def lines_to_show(chunk: Chunk, terms: frozenset[str], length: int) -> tuple[int, int] | None:
    """The chunk's key lines of that length, else (no line holds a word of the task) the
    `length` lines after its first, where it says what it is; None for a chunk whose text is
    not its lines or that is not longer than that."""
    found = key_lines(chunk, terms, length)
    if found is not None:
        return found
    span = chunk.end_line - chunk.start_line + 1
    if chunk.text.count("\n") + 1 != span or span < length + 2:
        return None
    return chunk.start_line + 1, chunk.start_line + length
