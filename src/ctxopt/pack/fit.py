"""Rendering a selection within its budget: merged neighbours, top-up, overview."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ctxopt.index.store import IndexReader
from ctxopt.pack.overview import structure_overview
from ctxopt.pack.prompt_tokens import count as count_tokens
from ctxopt.pack.render import FileGroup, GapCheck, RenderInput, group_by_file, render
from ctxopt.pack.select import FILE_HEADER, SHOWS_CODE, Render, Selection, top_ranked_floor
from ctxopt.types import Choice, Dropped, DropReason, Fidelity, PickReason


def render_data(
    base: RenderInput,
    chosen: Sequence[Choice],
    order: str,
    overview: str,
    gap_is_blank: GapCheck | None = None,
) -> RenderInput:
    shown = [c for c in chosen if c.fidelity != Fidelity.PATH]
    elsewhere = tuple(c for c in chosen if c.fidelity == Fidelity.PATH)
    groups: tuple[FileGroup, ...] = tuple(group_by_file(shown, order, gap_is_blank))
    return replace(
        base, groups=groups, elsewhere=elsewhere, overview=overview, shown_files=len(groups)
    )


@dataclass(frozen=True)
class Fitting:
    render_entry: Render  # the selection's (cached) entry renderer
    gap_is_blank: GapCheck
    reader: IndexReader | None  # for the structure overview; None: no overview
    top_up: bool  # whole chunks may fill room left over (not in signatures-only packs)
    order: str  # file order: "relevance" or "edges"
    format: str  # markdown, xml or plain
    cap: int | None = None  # the user's cap per file, which top-up respects too
    cap_exempt: frozenset[str] = frozenset()  # files the cap does not apply to


def fit_prompt(
    base: RenderInput, selection: Selection, budget: int, fitting: Fitting
) -> tuple[str, RenderInput, Selection]:
    """Render; while over budget drop the weakest entry.  Neighbouring chunks merged into one
    entry leave room the selection could not foresee: the next hits it turned away fill it.
    Then add the overview if it fits."""
    chosen = list(selection.chosen)
    dropped = list(selection.dropped)

    def rendered() -> tuple[str, RenderInput, int]:
        data = render_data(base, chosen, fitting.order, "", fitting.gap_is_blank)
        prompt = render(data, fitting.format)
        return prompt, data, count_tokens(prompt)

    prompt, data, used = rendered()
    extra = top_up(chosen, dropped, budget - used, fitting) if fitting.top_up else []
    if extra:
        chosen.extend(extra)
        taken = {c.hit.chunk.id for c in extra}
        dropped = [d for d in dropped if d.hit.chunk.id not in taken]
        prompt, data, used = rendered()
    floor = top_ranked_floor(chosen, dropped)
    while used > budget and chosen:
        weakest = _weakest(chosen, floor)
        chosen.remove(weakest)
        dropped.append(Dropped(weakest.hit, DropReason.FITTING))
        prompt, data, used = rendered()
    if fitting.reader is not None and chosen:
        overview = structure_overview(fitting.reader.file_records())
        with_overview = render_data(base, chosen, fitting.order, overview, fitting.gap_is_blank)
        text = render(with_overview, fitting.format)
        if count_tokens(text) <= budget:
            prompt, data = text, with_overview
    return prompt, data, Selection(tuple(chosen), tuple(dropped), selection.spent)


def _weakest(chosen: Sequence[Choice], top_floor: float) -> Choice:
    """The entry a prompt over its budget drops first: a top-up before the selection's own
    picks, then one picked for its score; of those the lowest-scored, but a file's last entry
    showing code only when every candidate is one, and its last entry of all after that (a few
    tokens over must not take a file out of the pack, nor leave it a declaration line alone).
    Issue 18's rule comes before that last wish: a top-ranked hit (scoring top_floor or more)
    does not go while a weaker entry of its file stays; the weakest of those goes instead."""
    pool = (
        [c for c in chosen if c.why is PickReason.TOP_UP]
        or [c for c in chosen if c.why.by_score]
        or list(chosen)
    )
    entries = Counter(c.hit.chunk.path for c in chosen)
    code = Counter(c.hit.chunk.path for c in chosen if c.fidelity in SHOWS_CODE)

    def key(c: Choice) -> tuple[bool, bool, float, int]:
        path = c.hit.chunk.path
        last_code = c.fidelity in SHOWS_CODE and code[path] == 1
        return last_code, entries[path] == 1, c.hit.score, -c.hit.chunk.start_line

    weakest = min(pool, key=key)
    if weakest.hit.score < top_floor:
        return weakest
    weaker = [
        c for c in pool
        if c.hit.chunk.path == weakest.hit.chunk.path and c.hit.score < weakest.hit.score
    ]  # fmt: skip
    return min(weaker, key=key) if weaker else weakest


def top_up(
    chosen: Sequence[Choice],
    dropped: Sequence[Dropped],
    room: int,
    fitting: Fitting,
) -> list[Choice]:
    """Hits turned away for want of room, in the order they were turned away, in full, while
    their estimated cost fits the room the rendered prompt left (and the user's cap per file,
    if one is set, holds)."""
    extra: list[Choice] = []
    shown = {c.hit.chunk.path for c in chosen}
    per_file = Counter(c.hit.chunk.path for c in chosen if c.why.counts_toward_cap)
    for drop in dropped:
        if room < MIN_TOP_UP:
            break
        if drop.reason is not DropReason.BUDGET_FULL:
            continue
        hit = drop.hit
        path = hit.chunk.path
        if _at_cap(fitting, per_file[path], path):
            continue
        content, cost = fitting.render_entry(hit.chunk, Fidelity.FULL)
        cost += 0 if path in shown else FILE_HEADER
        if cost <= room and content.strip():
            extra.append(Choice(hit, Fidelity.FULL, content, cost, PickReason.TOP_UP))
            shown.add(path)
            per_file[path] += 1
            room -= cost
    return extra


def _at_cap(fitting: Fitting, count: int, path: str) -> bool:
    return fitting.cap is not None and count >= fitting.cap and path not in fitting.cap_exempt


MIN_TOP_UP = 40  # a rendered prompt this far under its budget takes more hits
