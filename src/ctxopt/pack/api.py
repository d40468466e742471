"""`pack_query_result`: selection, compression and rendering of ranked hits within a hard budget.

The caller (the application layer) refreshes the index, runs the query that
`pack_query` describes and passes its result with the open index reader; packing
reads the stored file records and the chunks of a few files through that reader,
and never opens or changes the index itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ctxopt import tokens
from ctxopt.config.paths import shown_path
from ctxopt.config.settings import Settings
from ctxopt.errors import BudgetError, UsageError
from ctxopt.index.store import IndexReader
from ctxopt.pack import models as model_table
from ctxopt.pack.code_budget import smallest_budget_with_code
from ctxopt.pack.compress import LEVELS
from ctxopt.pack.content import make_renderer
from ctxopt.pack.fit import Fitting, fit_prompt, render_data
from ctxopt.pack.long_task import TASK_SHARE, shorten_task
from ctxopt.pack.prompt_tokens import count as count_tokens
from ctxopt.pack.render import FORMATS, RenderInput, render
from ctxopt.pack.select import FILE_HEADER, Render, Selection, SelectOptions, select
from ctxopt.pack.work_tree import WorkTree, left_out
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.retrieve.confidence import retrieval_confidence
from ctxopt.retrieve.search import QueryOptions
from ctxopt.secrets.chunks import redacted_hits, shown_secrets
from ctxopt.secrets.redact import redact_diff
from ctxopt.types import (
    HELD_BACK_BY_THE_CAP,
    Choice,
    Dropped,
    DropReason,
    Fidelity,
    ModelInfo,
    PackResult,
    PickReason,
    QueryResult,
    Savings,
    ScoredChunk,
    StopReason,
)

CANDIDATES = 300
SMALL_BUDGET = 1000
DEFAULT_BUDGET = 8000
LOW_CONFIDENCE = 0.15  # below this share of the task's words found, the task passes through
CAP_TOKENS = 1300  # the default cap per file grows to one chunk per this many tokens of budget


@dataclass(frozen=True)
class PackOptions:
    task: str
    budget: int | None = None  # in the target model's tokens; None: from the model
    model: str | None = None
    reserve: float = 0.2
    compression: str = "light"
    format: str = "markdown"
    line_numbers: bool = False
    order: str = "relevance"  # or "edges": most relevant first and last
    overview: bool = True
    extra_hits: tuple[ScoredChunk, ...] = ()  # e.g. chunks a diff touches (mandatory)
    preface: str = ""  # e.g. the diff itself, shown before the code
    globs: tuple[str, ...] = ()  # only ranked chunks of matching paths (gitignore syntax)


def _in_cl100k(budget: int, factor: float) -> int:
    """A budget in the model's tokens counted in cl100k tokens: exact for any size."""
    if factor == 1.0:
        return budget
    return math.floor(Fraction(budget) / Fraction(repr(factor)))


def resolve_budget(
    options: PackOptions, table: dict[str, ModelInfo]
) -> tuple[int, int, float, ModelInfo | None]:
    """(cl100k budget, model-token budget, token factor, model) for the options."""
    model = model_table.find_model(options.model, table) if options.model else None
    factor = model.token_factor if model else 1.0
    if options.budget is not None:
        if options.budget <= 0:
            raise UsageError(f"--budget must be positive, got {options.budget}")
        return _in_cl100k(options.budget, factor), options.budget, factor, model
    if model is not None:
        budget = model_table.budget_for_model(model, options.reserve)
        return budget, int(model.context_window * (1 - options.reserve)), factor, model
    return DEFAULT_BUDGET, DEFAULT_BUDGET, factor, model


def _budget_words(budget: int, model_budget: int, factor: float) -> str:
    """A budget as the user gave it: in the model's tokens, with the cl100k count it means."""
    if factor == 1.0 or budget == model_budget:
        return f"{budget:,} tokens"
    return f"{model_budget:,} tokens ({budget:,} counted with cl100k)"


def check_options(settings: Settings, options: PackOptions) -> None:
    """Raise a UsageError for an empty task, an unknown level or format, or a bad budget."""
    _validate(options)
    resolve_budget(options, model_table.load_models(settings.models_file))


def pack_query(options: PackOptions) -> tuple[str, QueryOptions]:
    """The query a pack is built from: the task and the names of the mandatory hits."""
    text = " ".join([options.task, *(h.chunk.name for h in options.extra_hits[:30])])
    return text, QueryOptions(k=CANDIDATES, globs=options.globs)


def _validate(options: PackOptions) -> None:
    if not options.task.strip():
        raise UsageError("the task is empty; say what you want done")
    if options.compression not in LEVELS:
        raise UsageError(f"--compression must be one of {', '.join(LEVELS)}")
    if options.format not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}")


def pack_query_result(
    settings: Settings,
    options: PackOptions,
    query: QueryResult,
    reader: IndexReader,
    *,
    stale: int = 0,
) -> PackResult:
    """The best prompt for the task from the ranked hits of `pack_query(options)`, within the
    budget (a hard guarantee).  stale: files that changed since indexing and were not
    re-indexed, reported in the result."""
    _validate(options)
    table = model_table.load_models(settings.models_file)
    budget, model_budget, factor, named = resolve_budget(options, table)
    records = reader.file_records()
    repo_tokens = sum(r.tokens for r in records.values())
    hits = _merge_hits(options.extra_hits, query.results)
    confidence = (
        query.confidence if not options.extra_hits else retrieval_confidence(query.entities, hits)
    )
    warnings: list[str] = []
    if not records:
        warnings.append(
            "the index is empty (the repository has no files ctxopt reads): "
            "the prompt holds only the task"
        )
    elif confidence < LOW_CONFIDENCE:
        warnings.append(
            "no highly relevant code found; the task passes through with little context"
        )
    work_tree = WorkTree(settings.root)
    base = RenderInput(
        repo_name=shown_path(settings.root.name),
        task=_task_text(options, redact=not settings.allow_secrets),
        groups=(),
        elsewhere=(),
        overview="",
        shown_files=0,
        total_files=len(records),
        repo_tokens=repo_tokens,
        line_numbers=options.line_numbers,
        outline_rows=work_tree.outline_rows,
    )
    renderer = make_renderer(options.compression)  # type: ignore[arg-type]
    # the best hit the selection may take: a task read with low confidence passes only those
    # it names, so with none of them no budget packs code, and none is asked for
    best = next((h for h in hits if confidence >= LOW_CONFIDENCE or h.named_by_task), None)
    fixed, least = _least_pack(base, best, renderer, options.format)
    short = (
        shorten_task(base.task, int(TASK_SHARE * budget))
        if least > budget >= SMALL_BUDGET
        else None
    )
    if short is not None:  # a long task (a pasted log): its start and end
        shorter = replace(base, task=short.text)
        cut = _least_pack(shorter, best, renderer, options.format)
        if cut[1] > budget:
            short = None  # the task is kept whole, and the pack refused
        else:
            base, (fixed, least) = shorter, cut
            warnings.append(
                f"the task takes more of the budget than leaves room for code: "
                f"{short.elided_lines:,} of its lines ({short.elided_tokens:,} tokens) are "
                "elided in the prompt, its start and end kept; raise --budget to keep it whole"
            )
    focus = focus_files(hits)
    hits = [*hits, *_rest_of_files(reader, focus, hits)]
    if not settings.allow_secrets:  # before compression and fitting: the budget holds
        hits = redacted_hits(hits)
    strict = user_cap(settings)  # a cap the user set holds for files the task does not name
    packing = _Packing(
        settings=settings,
        options=options,
        base=base,
        fixed=fixed,
        renderer=renderer,
        work_tree=work_tree,
        reader=reader,
        hits=tuple(hits),
        pool=tuple(hits if confidence >= LOW_CONFIDENCE else [h for h in hits if h.named_by_task]),
        strict=strict,
        exempt=files_named(hits) if strict else focus,
    )
    budget_words = _budget_words(budget, model_budget, factor)
    if fixed > budget:
        works = _least_working(base, best, renderer, options.format, least)
        if works == least and best is not None:  # not SMALL_BUDGET, for a shortened task
            works = _least_with_code(packing, least)
        raise _no_room(budget_words, fixed, math.ceil(works * factor), budget < SMALL_BUDGET)
    if best is not None and budget < least:
        raise _no_code(budget_words, fixed, _least_with_code(packing, least), factor)
    if budget < SMALL_BUDGET:
        warnings.append(f"budget under {SMALL_BUDGET} tokens: signatures only")
    prompt, data, selection, cap = _select_and_fit(packing, budget, overview=options.overview)
    if best is not None and short is None and not _holds_code(selection):
        # the reckoned least packs no code here: refused when the first budget that does is
        # above this one (a task shortened for this budget would be shortened anew at it)
        works = _least_with_code(packing, least, known_empty=budget)
        if works > budget:
            raise _no_code(budget_words, fixed, works, factor)
    prompt_tokens = count_tokens(prompt)
    recommendation = model_table.recommend_model(prompt_tokens, query.intent.complexity, table)
    price_model = named or model_table.price_model(None, table)
    saved_tokens = max(0, repo_tokens - prompt_tokens)
    return PackResult(
        prompt=prompt,
        tokens=prompt_tokens,
        budget=budget,
        model_budget=model_budget,
        encoding=tokens.ENCODING_NAME,
        token_factor=factor,
        files=tuple(g.path for g in data.groups),
        chosen=tuple(_with_left_out(c, work_tree) for c in selection.chosen),
        dropped=selection.dropped,
        savings=Savings(
            repo_tokens=repo_tokens,
            packed_tokens=prompt_tokens,
            percentage=round(100 * saved_tokens / repo_tokens, 2) if repo_tokens else 0.0,
            cost_saved=round(model_table.estimate_cost(saved_tokens, price_model), 6),
            model=price_model.name,
        ),
        recommendation=recommendation,
        query=query,
        confidence=confidence,
        warnings=tuple(warnings),
        stale=stale,
        model=named,
        model_cost=model_table.estimate_cost(prompt_tokens, named) if named else 0.0,
        max_chunks_per_file=cap,
        reserve=options.reserve if options.budget is None else None,
        stopped_by=stop_reason(selection.dropped, budget - prompt_tokens),
        candidates=len(packing.pool),
        secrets_redacted=0 if settings.allow_secrets else shown_secrets(selection.chosen),
    )


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


def _with_left_out(choice: Choice, work_tree: WorkTree) -> Choice:
    """A class outline's choice with the bodies it leaves out, where its rows were found."""
    chunk = choice.hit.chunk
    rows = work_tree.outline_rows(chunk)
    lines = work_tree.lines(chunk.path) if rows is not None else None
    if rows is None or lines is None:
        return choice
    return replace(choice, left_out=left_out(rows, lines, chunk.start_line, chunk.end_line))


@dataclass(frozen=True)
class _Packing:
    """What selection and fitting take besides the budget: a trial budget packs as a pack
    asked for that budget would."""

    settings: Settings
    options: PackOptions
    base: RenderInput
    fixed: int  # tokens of the task and headers alone
    renderer: Render
    work_tree: WorkTree
    reader: IndexReader
    hits: tuple[ScoredChunk, ...]  # every candidate
    pool: tuple[ScoredChunk, ...]  # the candidates the selection may take
    strict: bool  # the cap per file is the user's
    exempt: frozenset[str]  # files the cap does not apply to


def _select_and_fit(
    packing: _Packing, budget: int, *, overview: bool = False
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
        order=packing.options.order,
        format=packing.options.format,
        cap=cap if packing.strict else None,
        cap_exempt=exempt,
    )
    prompt, data, selection = fit_prompt(packing.base, selection, budget, fitting)
    return prompt, data, selection, cap


def _holds_code(selection: Selection) -> bool:
    return any(c.fidelity != Fidelity.PATH for c in selection.chosen)


def _least_with_code(packing: _Packing, least: int, *, known_empty: int | None = None) -> int:
    """The first budget from the reckoned least up whose pack holds code (code_budget);
    least when none of the budgets tried does."""
    found = smallest_budget_with_code(
        least,
        lambda budget: _holds_code(_select_and_fit(packing, budget)[2]),
        known_empty=known_empty,
    )
    return least if found is None else found


def _no_room(budget_words: str, fixed: int, works: int, small: bool) -> BudgetError:
    shortened = f" (from {SMALL_BUDGET:,} a long task is shortened)" if small else ""
    return BudgetError(
        lambda names: (
            f"the budget of {budget_words} cannot hold even the task and headers "
            f"({fixed:,} tokens); raise {names('budget')} to at least {works:,}{shortened} "
            f"or pick a {names('model')} with a larger window"
        )
    )


def _no_code(budget_words: str, fixed: int, least: int, factor: float) -> BudgetError:
    needed = math.ceil(least * factor)
    return BudgetError(
        lambda names: (
            f"the budget of {budget_words} holds the task and headers ({fixed:,} "
            f"tokens) but not one entry of code: that takes {least:,}; raise {names('budget')} "
            f"to at least {needed:,} (or pick a {names('model')} with a larger window)"
        )
    )


def _least_working(
    base: RenderInput, best: ScoredChunk | None, renderer: Render, fmt: str, least: int
) -> int:
    """The smallest budget that packs: least, or SMALL_BUDGET when the task shortened there
    (a long task, a diff) leaves room for code at it."""
    if least <= SMALL_BUDGET:
        return least
    short = shorten_task(base.task, int(TASK_SHARE * SMALL_BUDGET))
    if short is None:
        return least
    _, shortened = _least_pack(replace(base, task=short.text), best, renderer, fmt)
    return SMALL_BUDGET if shortened <= SMALL_BUDGET else least


def _least_pack(
    base: RenderInput, best: ScoredChunk | None, renderer: Render, fmt: str
) -> tuple[int, int]:
    """Tokens of the task and headers alone, and of the smallest pack with code in it (the
    same when there is no hit)."""
    fixed = count_tokens(render(base, fmt))
    return fixed, fixed if best is None else _least_budget(base, best, renderer, fmt, fixed)


def _least_budget(
    base: RenderInput, best: ScoredChunk, renderer: Render, fmt: str, fixed: int
) -> int:
    """Tokens of the smallest pack with code in it: the task, the headers and the best hit
    as a signature or a one-line stub.  The selection takes the first of those its reckoning
    (the entry's cost and a file header) fits, and that entry must fit as rendered too."""
    reckoned, rendered = [], []
    for fidelity in (Fidelity.SIGNATURE, Fidelity.STUB):  # the order the selection tries
        content, cost = renderer(best.chunk, fidelity)
        entry = Choice(best, fidelity, content, cost, PickReason.SCORE)
        reckoned.append(fixed + cost + FILE_HEADER)
        rendered.append(count_tokens(render(render_data(base, [entry], "relevance", ""), fmt)))
    for budget in sorted({max(pair) for pair in zip(reckoned, rendered, strict=True)}):
        first = next(i for i, need in enumerate(reckoned) if need <= budget)  # one fits
        if rendered[first] <= budget:
            return budget
    return max(*reckoned, *rendered)


def stop_reason(dropped: Sequence[Dropped], room_left: int) -> StopReason:
    """The limit that ended a selection, read from what it left out and why: the budget
    when something was turned away for want of room, or when no chunk held back by the
    per-file cap (turned away by it, or made way for a better chunk of its file) would have
    fitted in the room left."""
    reasons = {d.reason for d in dropped}
    if reasons & {DropReason.BUDGET_FULL, DropReason.NO_ROOM, DropReason.FITTING}:
        return StopReason.BUDGET
    capped = [d.hit.chunk.tokens for d in dropped if d.reason in HELD_BACK_BY_THE_CAP]
    if capped:
        return StopReason.PER_FILE_CAP if min(capped) < room_left else StopReason.BUDGET
    return StopReason.CANDIDATES


FOCUS_FILES = 3  # at most this many files are exempt from the per-file cap ...
FOCUS_SHARE = 0.8  # ... when their best chunk scores this close to the best hit
WHOLE_FILE_SHARE = 0.4  # those files are shown whole while they take at most this share


def files_named(hits: Sequence[ScoredChunk]) -> frozenset[str]:
    """The files the task names (by path)."""
    return frozenset(h.chunk.path for h in hits if h.features.get("proximity", 0) >= 1)


def focus_files(hits: Sequence[ScoredChunk]) -> frozenset[str]:
    """Files the default per-file cap does not apply to: those the task names, and the few
    files whose best chunk scores close to the best hit (the task is clearly about them)."""
    named = set(files_named(hits))
    if not hits:
        return frozenset(named)
    best: dict[str, float] = {}
    for hit in hits:
        best.setdefault(hit.chunk.path, hit.score)
    top = sorted(best, key=lambda p: -best[p])[:FOCUS_FILES]
    named.update(p for p in top if best[p] >= FOCUS_SHARE * hits[0].score)
    return frozenset(named)


def _best_rank(hits: Sequence[ScoredChunk], path: str) -> int:
    return next(i for i, h in enumerate(hits) if h.chunk.path == path)


def _rest_of_files(
    reader: IndexReader, paths: frozenset[str], hits: Sequence[ScoredChunk]
) -> list[ScoredChunk]:
    """The chunks of focus files that retrieval did not return, scored below their file."""
    if not paths:
        return []
    seen = {h.chunk.id for h in hits}
    floor = {p: min(h.score for h in hits if h.chunk.path == p) for p in paths}
    return [
        ScoredChunk(
            chunk, round(floor[chunk.path] * 0.5, 5), {}, ("in a file the task is about",), {}
        )
        for chunk in CandidateSource(reader).in_files(paths)
        if chunk.id not in seen
    ]


def _task_text(options: PackOptions, *, redact: bool) -> str:
    preface = redact_diff(options.preface) if redact else options.preface  # the diff
    return f"{preface.rstrip()}\n\n{options.task}" if preface else options.task


def _merge_hits(extra: Sequence[ScoredChunk], results: Sequence[ScoredChunk]) -> list[ScoredChunk]:
    seen = {h.chunk.id for h in extra}
    return [*extra, *(h for h in results if h.chunk.id not in seen)]
