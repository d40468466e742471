"""`ctxopt stats` as data: the index view, compression per level, task savings, growth
since a baseline and the CI gates; and its JSON form, which a later run reads back."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ctxopt import tokens
from ctxopt.app.pack import refresh_then_pack
from ctxopt.app.refresh import refresh_index
from ctxopt.config.settings import Settings
from ctxopt.errors import BudgetError, Naming, UsageError
from ctxopt.index.owner import check_owner
from ctxopt.index.stats import IndexReport, index_report
from ctxopt.index.store import IndexReader
from ctxopt.pack import models as model_table
from ctxopt.pack.api import PackOptions
from ctxopt.pack.baseline import (
    REPORT_SCHEMA,
    BaselineDiff,
    compare,
    read_baseline,
    shares_little,
)
from ctxopt.pack.compression_ratio import (
    DEFAULT_SAMPLE_TOKENS,
    CompressionReport,
    compression_ratios,
)
from ctxopt.pack.gates import GateFailure, GateLimits, check_gates
from ctxopt.pack.savings import SavingsTotals, TaskSavings, savings_of, savings_totals
from ctxopt.pack.tasks_file import SavingsTask, check_tasks, read_tasks_file
from ctxopt.retrieve.tuned import ranking_view
from ctxopt.types import ModelInfo


@dataclass(frozen=True)
class StatsRequest:
    depth: int = 1  # folder depth of the per-folder tokens
    top: int = 10  # largest files listed
    tasks: tuple[str, ...] = ()  # --task
    tasks_file: Path | None = None
    model: str | None = None  # prices (default: models.DEFAULT_PRICE_MODEL)
    budget: int | None = None  # default: settings.budget
    compression_sample: int = DEFAULT_SAMPLE_TOKENS
    baseline: Path | None = None
    limits: GateLimits = field(default_factory=GateLimits)
    refresh: bool = True


@dataclass(frozen=True)
class StatsReport:
    generated_at: str  # ISO 8601, UTC
    encoding: str  # how tokens are counted: cl100k_base, exactly
    prices: model_table.PriceSource
    model: str  # the default pricing model of the tasks
    index: IndexReport
    compression: CompressionReport
    tasks: tuple[TaskSavings, ...]
    totals: SavingsTotals | None
    baseline: BaselineDiff | None
    failures: tuple[GateFailure, ...]
    warnings: tuple[str, ...] = ()  # what the packs warned of, each naming its task


def _tasks(request: StatsRequest, table: dict[str, ModelInfo]) -> list[SavingsTask]:
    tasks = [SavingsTask(text.strip()) for text in request.tasks]
    if any(not t.task for t in tasks):
        raise UsageError("--task is empty; say what the task is")
    if request.tasks_file is not None:
        tasks.extend(read_tasks_file(request.tasks_file, table))
    return list(check_tasks(tuple(tasks), table, source="--task"))


def _validate(request: StatsRequest) -> None:
    if request.depth < 1:
        raise UsageError(f"--depth must be at least 1, got {request.depth}")
    if request.top < 0:
        raise UsageError(f"--top must be 0 or more, got {request.top}")
    if request.budget is not None and request.budget <= 0:
        raise UsageError(f"--budget must be positive, got {request.budget}")
    if request.compression_sample < 0:
        raise UsageError(
            f"--compression-sample must be 0 or more (0: all), got {request.compression_sample}"
        )
    limits = request.limits
    if limits.fail_under is not None and not 0 <= limits.fail_under <= 100:
        raise UsageError(
            f"--fail-under must be a percentage from 0 to 100, got {limits.fail_under:g}"
        )
    if limits.max_repo_tokens is not None and limits.max_repo_tokens < 0:
        raise UsageError(f"--max-repo-tokens must be 0 or more, got {limits.max_repo_tokens}")
    if limits.max_growth is not None and not 0 <= limits.max_growth < math.inf:
        raise UsageError(
            f"--max-growth must be a finite percentage, 0 or more, got {limits.max_growth:g}"
        )


def stats_report(
    settings: Settings,
    request: StatsRequest,
    *,
    notify: Callable[[str], None] | None = None,
) -> StatsReport:
    """The whole report; every input is checked before the first task is packed."""
    _validate(request)
    table = model_table.load_models(settings.models_file)
    model = model_table.price_model(request.model or settings.model, table).name
    baseline = read_baseline(request.baseline) if request.baseline else None
    budget = request.budget or settings.budget
    entries = _tasks(request, table)
    tasks = [SavingsTask(t.task, t.budget or budget, t.model or model) for t in entries]
    namings = [tasks_file_naming(t) for t in entries]
    opened = IndexReader(settings.db_path)  # no index: one message before anything else
    check_owner(opened.meta(), settings.db_path, settings.root)  # another repository's --db
    if tasks and request.refresh:
        refresh_index(settings, refresh=True, notify=notify)  # once, before the first pack
    warnings: list[str] = []
    rows = tuple(
        _savings_of_task(settings, n, task, naming, notify, warnings.append)
        for n, (task, naming) in enumerate(zip(tasks, namings, strict=True), 1)
    )
    index = index_report(settings, depth=request.depth, top=request.top)
    ranking = ranking_view(settings, index.embedder)
    index = replace(index, ranking=ranking.line, weights=ranking.weights)
    diff = (
        compare(
            baseline,
            repo_tokens=index.tokens,
            depth=index.depth,
            folders=index.folders,
            tasks=rows,
        )
        if baseline
        else None
    )
    if baseline is not None and (share := shares_little(baseline, index.folders)) is not None:
        warnings.append(
            f"baseline {baseline.path}: only {share:.0%} of its tokens lie in folders this index "
            "has; was it made from another repository?"
        )
    return StatsReport(
        generated_at=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        encoding=tokens.ENCODING_NAME,
        prices=model_table.price_source(settings.models_file),
        model=model,
        index=index,
        compression=compression_ratios(
            IndexReader(settings.db_path), sample_tokens=request.compression_sample
        ),
        tasks=rows,
        totals=savings_totals(rows) if rows else None,
        baseline=diff,
        failures=check_gates(request.limits, repo_tokens=index.tokens, tasks=rows, diff=diff),
        warnings=tuple(warnings),
    )


def _savings_of_task(
    settings: Settings,
    number: int,
    task: SavingsTask,
    naming: Naming,
    notify: Callable[[str], None] | None,
    warn: Callable[[str], None],
) -> TaskSavings:
    """task_savings, a budget too small for the task, and the pack's warnings, named by the
    task's place and its start; a refusal names the options as naming does."""
    start = " ".join(task.task.split())
    named = f"task {number} ({start if len(start) <= 40 else start[:39] + '…'})"
    try:
        return task_savings(settings, task, notify=notify, warn=lambda w: warn(f"{named}: {w}"))
    except BudgetError as exc:
        raise BudgetError(f"{named}: {exc.worded(naming)}") from exc


def tasks_file_naming(task: SavingsTask) -> Naming:
    """Flags, but a budget or model the task's own entry in the tasks file sets is named as
    that entry's (`raise its tasks-file `budget``): --budget and --model do not reach it."""
    own = (
        ("budget", "its tasks-file `budget`", task.budget),
        ("model", "tasks-file `model`", task.model),
    )
    return Naming(
        elsewhere=tuple((option, words) for option, words, value in own if value is not None)
    )


def task_savings(
    settings: Settings,
    task: SavingsTask,
    *,
    notify: Callable[[str], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> TaskSavings:
    """Pack one task as `ctxopt pack --budget B [--model M] --no-refresh` would, and price it."""
    table = model_table.load_models(settings.models_file)
    price = model_table.price_model(task.model, table)
    budget = task.budget if task.budget is not None else settings.budget
    options = PackOptions(
        task=task.task,
        budget=budget,
        model=task.model,
        reserve=settings.reserve,
        compression=settings.compression,
        format=settings.format,
    )
    result = refresh_then_pack(settings, options, refresh=False, notify=notify)
    if warn is not None:
        for warning in result.warnings:
            warn(warning)
    return savings_of(task, budget, result, price)


def _growth(growth: Any) -> dict[str, Any]:
    return {
        "subject": growth.subject,
        "before": growth.before,
        "after": growth.after,
        "change": growth.change,
        "percent": growth.percent,
    }


def report_json(report: StatsReport) -> dict[str, Any]:
    """The one JSON object of `ctxopt stats --json` (read back by --baseline)."""
    compression = asdict(report.compression)
    compression["sampled"] = report.compression.sampled
    return {
        **asdict(report.index),  # the index view's fields at the top, as before tasks existed
        "schema": REPORT_SCHEMA,
        "generated_at": report.generated_at,
        "tokens_counted_with": {"encoding": report.encoding, "exact": True},
        "prices": {
            "date": report.prices.date,
            "source": report.prices.source,
            "model": report.model,
            "unit": "USD per million input tokens",
        },
        "compression": compression,
        "tasks": [{**asdict(t), "cost_saved": t.cost_saved} for t in report.tasks],
        "totals": asdict(report.totals) if report.totals else None,
        "baseline": None
        if report.baseline is None
        else {
            "path": report.baseline.path,
            "generated_at": report.baseline.generated_at,
            "repository": _growth(report.baseline.repository),
            "folders": [_growth(g) for g in report.baseline.folders],
            "tasks": [_growth(g) for g in report.baseline.tasks],
        },
        "warnings": list(report.warnings),
        "gates": [
            {
                "gate": f.gate.value,
                "subject": f.subject,
                "actual": f.actual,
                "limit": f.limit,
                "excess": f.excess,
            }
            for f in report.failures
        ],
    }
