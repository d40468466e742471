"""`select_and_fit`: the prompt the ranked hits make at one budget, and whether it holds code.

A pack asked for a budget and a trial budget of the refusal search (`refuse`) pack alike:
both go through here with the same `Packing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ctxopt.config.settings import Settings
from ctxopt.index.store import IndexReader
from ctxopt.pack.duplicates import copies_accounted
from ctxopt.pack.fit import Fitting, fit_prompt
from ctxopt.pack.render import RenderInput
from ctxopt.pack.select import Render, Selection, SelectOptions, select
from ctxopt.pack.work_tree import WorkTree
from ctxopt.types import Dropped, DropReason, Fidelity, ScoredChunk

SMALL_BUDGET = 1000  # below this the whole pack starts at signatures
CAP_TOKENS = 1300  # the default cap per file grows to one chunk per this many tokens of budget
WHOLE_FILE_SHARE = 0.4  # focus files are shown whole while they take at most this share


@dataclass(frozen=True)
class Packing:
    """What selection and fitting take besides the budget: a trial budget packs as a pack
    asked for that budget would."""

    settings: Settings
    order: str  # the pack's order of entries ("relevance" or "edges")
    format: str  # the pack's output format
    base: RenderInput
    fixed: int  # tokens of the task and headers alone
    renderer: Render
    work_tree: WorkTree
    reader: IndexReader
    hits: tuple[ScoredChunk, ...]  # every candidate
    pool: tuple[ScoredChunk, ...]  # the candidates the selection may take
    strict: bool  # the cap per file is the user's
    exempt: frozenset[str]  # files the cap does not apply to
    key_terms: frozenset[str] = frozenset()  # what a long chunk's key lines hold (pack.key_lines)


def select_and_fit(
    packing: Packing, budget: int, *, overview: bool = False
) -> tuple[str, RenderInput, Selection, int]:
    """The prompt at a budget, what it holds and the cap per file it used.  overview: with
    the structure overview when it fits (it never changes which entries the prompt holds)."""
    settings, hits, pool, exempt = packing.settings, packing.hits, packing.pool, packing.exempt
    cap = per_file_cap(settings, budget)
    selection = select(
        pool,
        SelectOptions(
            budget=budget - packing.fixed,
            max_chunks_per_file=cap,
            strict_cap=packing.strict,
            displace=settings.displace_capped,
            path_entries=settings.path_entries,
            named_files=exempt,
            whole_files=tuple(sorted(exempt, key=lambda p: _best_rank(hits, p))),
            whole_share=WHOLE_FILE_SHARE,
            key_terms=packing.key_terms,
            start_fidelity=Fidelity.SIGNATURE if budget < SMALL_BUDGET else Fidelity.FULL,
        ),
        packing.renderer,
    )
    if len(pool) < len(hits):  # every candidate is accounted for (pack --explain)
        left = [Dropped(h, DropReason.LOW_CONFIDENCE) for h in hits if not h.named_by_task]
        selection = replace(selection, dropped=(*selection.dropped, *left))
    fitting = Fitting(
        packing.renderer,
        packing.work_tree.only_blank_between,
        packing.reader if overview else None,
        top_up=budget >= SMALL_BUDGET,
        order=packing.order,
        format=packing.format,
        cap=cap if packing.strict else None,
        cap_exempt=exempt,
    )
    prompt, data, selection = fit_prompt(packing.base, selection, budget, fitting)
    dropped = copies_accounted(selection.chosen, selection.dropped)
    return prompt, data, replace(selection, dropped=dropped), cap


def holds_code(selection: Selection) -> bool:
    """Whether a selection holds an entry of code (not only paths)."""
    return any(c.fidelity != Fidelity.PATH for c in selection.chosen)


def per_file_cap(settings: Settings, budget: int) -> int:
    """Chunks per file at most: the user's setting, or by default 8, or one per CAP_TOKENS
    tokens of budget when that is more (12 at 16k: a 16k pack has room for a file's ninth
    chunk, which at 8 went to weaker chunks of other files)."""
    if user_cap(settings):
        return settings.max_chunks_per_file
    return max(settings.max_chunks_per_file, budget // CAP_TOKENS)


def user_cap(settings: Settings) -> bool:
    """Whether the cap per file is the user's (a flag, a config file, the MCP tool's
    argument): then it holds for every file the task does not name, and no room left
    lifts it."""
    return settings.source("max_chunks_per_file") != "default"


def _best_rank(hits: Sequence[ScoredChunk], path: str) -> int:
    return next(i for i, h in enumerate(hits) if h.chunk.path == path)
