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
from ctxopt.errors import UsageError
from ctxopt.index.store import IndexReader
from ctxopt.pack import models as model_table
from ctxopt.pack.compress import LEVELS
from ctxopt.pack.content import make_renderer
from ctxopt.pack.focus import files_named, focus_files, rest_of_files
from ctxopt.pack.key_lines import key_terms
from ctxopt.pack.long_task import TASK_SHARE, shorten_task
from ctxopt.pack.name_room import with_name_room
from ctxopt.pack.packing import CAP_TOKENS as CAP_TOKENS  # re-exported
from ctxopt.pack.packing import SMALL_BUDGET, Packing, holds_code, select_and_fit, user_cap
from ctxopt.pack.packing import per_file_cap as per_file_cap  # re-exported
from ctxopt.pack.prompt_tokens import count as count_tokens
from ctxopt.pack.refuse import (
    budget_in_words,
    least_pack,
    least_with_code,
    least_working,
    no_code,
    no_room,
)
from ctxopt.pack.render import FORMATS, RenderInput, render
from ctxopt.pack.select import Selection
from ctxopt.pack.work_tree import WorkTree, left_out
from ctxopt.retrieve.candidates import prefilter_clause
from ctxopt.retrieve.confidence import retrieval_confidence
from ctxopt.retrieve.filters import checked_kinds, checked_languages
from ctxopt.retrieve.search import QueryOptions
from ctxopt.secrets.chunks import redacted_hits, shown_secrets
from ctxopt.secrets.redact import redact_diff
from ctxopt.types import (
    HELD_BACK_BY_THE_CAP,
    Choice,
    Dropped,
    DropReason,
    ModelInfo,
    PackResult,
    QueryResult,
    Savings,
    ScoredChunk,
    StopReason,
)
from ctxopt.wording import plural

CANDIDATES = 300
DEFAULT_BUDGET = 8000
LOW_CONFIDENCE = 0.15  # below this share of the task's words found, the task passes through


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
    languages: tuple[str, ...] = ()  # only chunks of these languages (names or extensions)
    kinds: tuple[str, ...] = ()  # only chunks of these kinds (function, class ...)

    def __post_init__(self) -> None:
        # checked when built, before any work, as QueryOptions does: a typo is a usage error
        object.__setattr__(self, "languages", checked_languages(self.languages))
        object.__setattr__(self, "kinds", checked_kinds(self.kinds))


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


def unused_reserve(settings: Settings, options: PackOptions) -> str | None:
    """The warning for a reserve given (flag or tool argument) where no model's window sets
    the budget, so it changes nothing; None when it applies or was not given."""
    if settings.source("reserve") != "flag" or options.budget is None:
        return None
    if options.model is None:
        return (
            f"--reserve has no effect without --model: the budget is {options.budget:,} "
            "tokens, not a share of a model's window"
        )
    return f"--reserve has no effect with --budget: the budget is {options.budget:,} tokens"


def _filters_given(options: PackOptions) -> str:
    """The filters a pack was given, in words ("glob and kind filters"); "" for none."""
    given = [
        name
        for name, values in (
            ("glob", options.globs), ("language", options.languages), ("kind", options.kinds)
        )
        if values
    ]  # fmt: skip
    if not given:
        return ""
    words = " and ".join(given)
    return f"{words} filter" if len(given) == 1 else f"{words} filters"


def check_options(settings: Settings, options: PackOptions) -> None:
    """Raise a UsageError for an empty task, an unknown level or format, or a bad budget."""
    _validate(options)
    resolve_budget(options, model_table.load_models(settings.models_file))


def pack_query(options: PackOptions) -> tuple[str, QueryOptions]:
    """The query a pack is built from: the task and the names of the mandatory hits."""
    text = " ".join([options.task, *(h.chunk.name for h in options.extra_hits[:30])])
    return text, QueryOptions(
        k=CANDIDATES, globs=options.globs, languages=options.languages, kinds=options.kinds
    )


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
    warnings = [note] if (note := unused_reserve(settings, options)) else []
    if not records:
        warnings.append(
            "the index is empty (the repository has no files ctxopt reads): "
            "the prompt holds only the task"
        )
    elif not query.results and query.candidates and (filters := _filters_given(options)):
        warnings.append(  # the index holds code for the task: the filters left none of it
            f"the {filters} matched none of the {plural(query.candidates, 'candidate')}; the "
            "prompt holds only the task"
        )
    elif confidence < LOW_CONFIDENCE:
        warnings.append(
            "no highly relevant code found; the task passes through with little context"
        )
    work_tree = WorkTree(settings.root)
    as_named = RenderInput(
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
    base = with_name_room(as_named, options.format)  # the folder's name never changes the pack
    renderer = make_renderer(options.compression)  # type: ignore[arg-type]
    # the best hit the selection may take: a task read with low confidence passes only those
    # it names, so with none of them no budget packs code, and none is asked for
    best = next((h for h in hits if confidence >= LOW_CONFIDENCE or h.named_by_task), None)
    fixed, least = least_pack(base, best, renderer, options.format)
    short = (
        shorten_task(base.task, int(TASK_SHARE * budget))
        if least > budget >= SMALL_BUDGET
        else None
    )
    if short is not None:  # a long task (a pasted log): its start and end
        shorter = replace(base, task=short.text)
        cut = least_pack(shorter, best, renderer, options.format)
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
    narrowed = prefilter_clause(options.languages, options.kinds, no_tests=False)
    hits = [*hits, *rest_of_files(reader, focus, hits, narrowed)]
    if not settings.allow_secrets:  # before compression and fitting: the budget holds
        hits = redacted_hits(hits)
    strict = user_cap(settings)  # a cap the user set holds for files the task does not name
    packing = Packing(
        settings=settings,
        order=options.order,
        format=options.format,
        base=base,
        fixed=fixed,
        renderer=renderer,
        work_tree=work_tree,
        reader=reader,
        hits=tuple(hits),
        pool=tuple(hits if confidence >= LOW_CONFIDENCE else [h for h in hits if h.named_by_task]),
        strict=strict,
        exempt=files_named(hits) if strict else focus,
        key_terms=key_terms(options.task),
    )
    budget_words = budget_in_words(budget, model_budget, factor)
    window = options.budget is None and named is not None  # the model's window set it
    if fixed > budget:
        works = least_working(base, best, renderer, options.format, least)
        if works == least and best is not None:  # not SMALL_BUDGET, for a shortened task
            works = least_with_code(packing, least)
        shortened_there = budget < SMALL_BUDGET <= works  # only a long task needs 1,000
        raise no_room(
            budget_words, fixed, math.ceil(works * factor), shortened_there, window=window
        )
    if best is not None and budget < least:
        raise no_code(budget_words, fixed, least_with_code(packing, least), factor, window=window)
    if budget < SMALL_BUDGET:
        warnings.append(f"budget under {SMALL_BUDGET} tokens: signatures only")
    prompt, data, selection, cap = _fitted(packing, as_named, budget, options.overview)
    if best is not None and short is None and not holds_code(selection):
        # the reckoned least packs no code here: refused when the first budget that does is
        # above this one (a task shortened for this budget would be shortened anew at it)
        works = least_with_code(packing, least, known_empty=budget)
        if works > budget:
            raise no_code(budget_words, fixed, works, factor, window=window)
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


def _with_left_out(choice: Choice, work_tree: WorkTree) -> Choice:
    """A class outline's choice with the bodies it leaves out, where its rows were found."""
    chunk = choice.hit.chunk
    rows = work_tree.outline_rows(chunk)
    lines = work_tree.lines(chunk.path) if rows is not None else None
    if rows is None or lines is None:
        return choice
    return replace(choice, left_out=left_out(rows, lines, chunk.start_line, chunk.end_line))


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


def _task_text(options: PackOptions, *, redact: bool) -> str:
    preface = redact_diff(options.preface) if redact else options.preface  # the diff
    return f"{preface.rstrip()}\n\n{options.task}" if preface else options.task


def _merge_hits(extra: Sequence[ScoredChunk], results: Sequence[ScoredChunk]) -> list[ScoredChunk]:
    seen = {h.chunk.id for h in extra}
    return [*extra, *(h for h in results if h.chunk.id not in seen)]


def _fitted(
    packing: Packing, as_named: RenderInput, budget: int, overview: bool
) -> tuple[str, RenderInput, Selection, int]:
    """The prompt chosen with the name's stand-in, showing the repository's own name.  The
    name costs no more than the stand-in, so the prompt holds its budget; were it ever to
    cost more in place, the prompt is chosen anew with the name itself."""
    prompt, data, selection, cap = select_and_fit(packing, budget, overview=overview)
    if data.repo_name == as_named.repo_name:
        return prompt, data, selection, cap
    data = replace(data, repo_name=as_named.repo_name)
    prompt = render(data, packing.format)
    if count_tokens(prompt) <= budget:
        return prompt, data, selection, cap
    own = replace(packing, base=replace(packing.base, repo_name=as_named.repo_name))
    return select_and_fit(own, budget, overview=overview)
