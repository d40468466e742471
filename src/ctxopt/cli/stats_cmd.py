"""`ctxopt stats`: the index, compression per level, token savings per task and CI gates."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ctxopt.cli.console import Terminal
from ctxopt.cli.options import DbOption, JsonOption, PathOption, QuietOption, RefOption
from ctxopt.cli.settings import refuse_empty, settings_from_flags

GATE_EXIT = 1  # a gate failed (README: exit codes)


def write_json_file(target: Path, value: object) -> None:
    import json

    from ctxopt.errors import UsageError

    try:
        target.parent.mkdir(parents=True, exist_ok=True)  # as -o makes its folders
        target.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write --json-file {target}: {exc.strerror or exc}") from exc


def stats(
    *,
    path: PathOption = None,
    ref: RefOption = None,
    db: DbOption = None,
    task: Annotated[
        list[str] | None,
        typer.Option(
            "--task",
            "-t",
            metavar="TEXT",
            help="Pack this task and report its savings (repeatable).",
        ),
    ] = None,
    tasks_file: Annotated[
        Path | None,
        typer.Option(
            "--tasks-file",
            metavar="FILE",
            help="Tasks to report: one per line, or YAML/JSON entries (task, budget, model).",
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget", "-b", metavar="TOKENS", help="Budget of each pack (default 8000)."
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model", "-m", metavar="NAME", help="Price at this model (default claude-sonnet-4-5)."
        ),
    ] = None,
    depth: Annotated[
        int, typer.Option("--depth", metavar="N", help="Folder depth of tokens per folder.")
    ] = 1,
    top: Annotated[
        int,
        typer.Option("--top", metavar="N", help="How many folders and largest files (0: none)."),
    ] = 10,
    compression_sample: Annotated[
        int,
        typer.Option(
            "--compression-sample",
            metavar="TOKENS",
            help="Measure compression on up to this many tokens of chunks (0: all).",
        ),
    ] = 200_000,
    fail_under: Annotated[
        float | None,
        typer.Option(
            "--fail-under", metavar="PCT", help="Exit 1 when a task saves less than PCT percent."
        ),
    ] = None,
    max_repo_tokens: Annotated[
        int | None,
        typer.Option(
            "--max-repo-tokens",
            metavar="TOKENS",
            help="Exit 1 when the repository holds more tokens.",
        ),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option(
            "--baseline", metavar="FILE", help="An earlier `stats --json` output to compare with."
        ),
    ] = None,
    max_growth: Annotated[
        float | None,
        typer.Option(
            "--max-growth",
            metavar="PCT",
            help="With --baseline: exit 1 when the repository or a task's pack grew more (%).",
        ),
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="GitHub markdown on stdout (step summary, PR).")
    ] = False,
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json-file",
            metavar="FILE",
            help="Also write the JSON report to this file (--baseline).",
        ),
    ] = None,
    no_refresh: Annotated[
        bool, typer.Option("--no-refresh", help="Don't re-index changed files before packing.")
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Show the index (languages, folders, largest files), compression per level and,
    for tasks, the tokens and cost a pack saves against the whole repository; gate CI."""
    from ctxopt.app.stats_report import StatsRequest, report_json, stats_report
    from ctxopt.cli.output_file import check_output_target
    from ctxopt.cli.render_stats import gate_failures, stats_tables
    from ctxopt.cli.render_stats_md import stats_markdown
    from ctxopt.cli.task_text import readable_text
    from ctxopt.errors import CtxoptError, UsageError
    from ctxopt.pack.gates import GateLimits

    refuse_empty({"model": model})
    if as_json and markdown:
        raise UsageError("--json and --markdown exclude each other; pick one")
    if max_growth is not None and baseline is None:
        raise UsageError("--max-growth needs --baseline FILE (an earlier `stats --json` output)")
    if fail_under is not None and not task and tasks_file is None:
        raise UsageError("--fail-under needs tasks: --task TEXT or --tasks-file FILE")
    if json_file is not None:  # before any task is packed; bad input, as before (exit 2)
        try:
            check_output_target(json_file, "--json-file")
        except CtxoptError as exc:
            raise UsageError(str(exc)) from None
    terminal = Terminal(quiet=quiet)
    settings = settings_from_flags(path, terminal=terminal, ref=ref, index_clone=True, db=db)
    request = StatsRequest(
        depth=depth,
        top=top,
        tasks=tuple(readable_text(t) for t in task or ()),
        tasks_file=tasks_file,
        model=model,
        budget=budget,
        compression_sample=compression_sample,
        baseline=baseline,
        limits=GateLimits(fail_under, max_repo_tokens, max_growth),
        refresh=not no_refresh,
    )
    report = stats_report(settings, request, notify=terminal.info)
    for warning in report.warnings:
        terminal.warn(warning)
    if json_file is not None:
        write_json_file(json_file, report_json(report))
    if as_json:
        terminal.json(report_json(report))
    elif markdown:
        terminal.payload(stats_markdown(report, top=top))
    else:
        stats_tables(terminal, report, top=top)
    gate_failures(terminal, report)
    if report.failures:
        raise typer.Exit(GATE_EXIT)
