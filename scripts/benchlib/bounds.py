"""How many changed lines a pack of whole chunks could show in the room a budget leaves.

Two reference points for a case, each with the same room as the real pack's entries:

  ranking   the ranked chunks taken whole in rank order while they fit (one that does not
            fit is skipped): what ctxopt's ranking alone would show, without its selection
  oracle    whole chunks of the changed files chosen knowing the changed lines, greedily by
            new changed lines per token: how far any ranking of whole chunks could go

Both charge each entry a label and each file a header, as the pack does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from benchlib.mine import GoldFile
from benchlib.select import Span

ENTRY_LABEL = 20  # tokens of an entry's label and fence in the rendered prompt, roughly
FILE_HEADER = 24  # tokens of a file's header line, as ctxopt's selection counts it


def _gold_lines(gold: Sequence[GoldFile]) -> set[tuple[str, int]]:
    return {(g.path, line) for g in gold for line in g.lines}


def _lines_in(span: Span, gold: set[tuple[str, int]]) -> set[tuple[str, int]]:
    return {
        (path, line)
        for path, line in gold
        if path == span.file and span.start_line <= line <= span.end_line
    }


def _cost(span: Span, paid_headers: set[str]) -> int:
    return span.tokens + ENTRY_LABEL + (0 if span.file in paid_headers else FILE_HEADER)


def ranking_coverage(gold: Sequence[GoldFile], ranked: Iterable[Span], room: int) -> float:
    """Share of the changed lines inside the ranked spans taken in order while they fit."""
    wanted = _gold_lines(gold)
    if not wanted:
        return 0.0
    shown: set[tuple[str, int]] = set()
    headers: set[str] = set()
    spent = 0
    for span in ranked:
        cost = _cost(span, headers)
        if spent + cost > room:
            continue
        spent += cost
        headers.add(span.file)
        shown |= _lines_in(span, wanted)
    return len(shown) / len(wanted)


def oracle_coverage(gold: Sequence[GoldFile], chunks: Sequence[Span], room: int) -> float:
    """Share of the changed lines a picker that knows them shows with whole chunks (greedy
    by new changed lines per token; nested chunks count each line once)."""
    wanted = _gold_lines(gold)
    if not wanted:
        return 0.0
    candidates = [(span, _lines_in(span, wanted)) for span in chunks]
    candidates = [(span, lines) for span, lines in candidates if lines]
    shown: set[tuple[str, int]] = set()
    headers: set[str] = set()
    spent = 0
    while True:
        best: tuple[float, Span, set[tuple[str, int]]] | None = None
        for span, lines in candidates:
            new = lines - shown
            cost = _cost(span, headers)
            if not new or spent + cost > room:
                continue
            value = len(new) / cost
            if best is None or value > best[0]:
                best = (value, span, new)
        if best is None:
            return len(shown) / len(wanted)
        _, span, new = best
        spent += _cost(span, headers)
        headers.add(span.file)
        shown |= new
