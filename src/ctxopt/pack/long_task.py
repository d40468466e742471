"""A task too long for its budget (a pasted log, a long diff): its start and its end, with the
lines between elided and counted in one marker line (pure, but for token counting)."""

from __future__ import annotations

from dataclasses import dataclass

from ctxopt import tokens

TASK_SHARE = 0.5  # a task that leaves no room for code is cut to this share of the budget
HEAD_SHARE = 1 / 3  # of what is kept, this much from the start, the rest from the end (where a
# log's error and a message's question usually are)
MARKER_ALLOWANCE = 30  # tokens kept free for the marker line


@dataclass(frozen=True)
class ShortTask:
    text: str
    elided_lines: int
    elided_tokens: int


def shorten_task(text: str, max_tokens: int) -> ShortTask | None:
    """The text cut to at most max_tokens tokens: whole lines from its start and its end around
    a line naming what was elided; parts of a line only when a single line is longer than its
    share.  None when the text already fits, or when not even the marker would."""
    total = tokens.count(text)
    if total <= max_tokens:
        return None
    lines = text.splitlines(keepends=True)
    counts = tokens.count_many(lines)  # once: each try below only moves the cut
    keep = max_tokens - MARKER_ALLOWANCE
    while keep > 0:
        short = _cut(lines, counts, keep, total)
        if tokens.count(short.text) <= max_tokens:
            return short
        keep -= MARKER_ALLOWANCE  # the joins and the marker counted a little more
    return None


def _cut(lines: list[str], counts: list[int], keep: int, total: int) -> ShortTask:
    head_room = int(keep * HEAD_SHARE)
    first = _take(counts, head_room)
    tail_room = keep - sum(counts[:first])
    last = len(lines) - _take(counts[first:][::-1], tail_room)
    head = "".join(lines[:first])
    tail = "".join(lines[last:])
    if not head:  # a first line longer than the head's share: the start of it
        head = tokens.truncate(lines[0], head_room)
        tail_room = keep - tokens.count(head)
    if not tail:  # likewise the end of the last line
        tail = tokens.truncate(lines[-1], tail_room, keep_end=True)
    elided_lines = max(1, last - first)
    elided_tokens = max(0, total - tokens.count(head) - tokens.count(tail))
    marker = (
        f"[... {elided_lines:,} line{'s' if elided_lines != 1 else ''} of the task "
        f"({elided_tokens:,} tokens) elided to fit the budget ...]"
    )
    joined = f"{head.rstrip(chr(10))}\n{marker}\n{tail.lstrip(chr(10))}"
    return ShortTask(joined, elided_lines, elided_tokens)


def _take(counts: list[int], room: int) -> int:
    """How many of the first lines fit in room tokens."""
    taken = 0
    for count in counts:
        if count > room:
            break
        room -= count
        taken += 1
    return taken
