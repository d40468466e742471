"""`ctxopt analyze-doc`: a rolling context window over documents larger than a model's window."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ctxopt.cli.console import Terminal
from ctxopt.cli.options import JsonOption, QuietOption

EXIT_PARTIAL = 4  # the report was written, but a window or the final synthesis fell back


def analyze_doc(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE",
            help="Documents (.txt, .md, .pdf, .html); - reads stdin. Several = one.",
        ),
    ],
    *,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-m",
            metavar="NAME",
            help="Model from pack's table: window = 80% of its input, cost in --plan "
            "(default window: claude-sonnet-4-5's).",
        ),
    ] = None,
    window_tokens: Annotated[
        int | None,
        typer.Option(
            "--window-tokens", metavar="TOKENS", help="Tokens of document text per window."
        ),
    ] = None,
    overlap: Annotated[
        float,
        typer.Option("--overlap", metavar="SHARE", help="Share of a window carried into the next."),
    ] = 0.2,
    single_pass_tokens: Annotated[
        int,
        typer.Option(
            "--single-pass-tokens",
            metavar="TOKENS",
            help="No effect: a document is one window when it fits one window "
            "(--window-tokens); kept for scripts that pass it.",
        ),
    ] = 100_000,
    memory_chars: Annotated[
        int, typer.Option("--memory-chars", metavar="N", help="Target size of the carried memory.")
    ] = 10_000,
    plan: Annotated[
        bool,
        typer.Option("--plan", help="Print the windows, calls, tokens and cost; call nothing."),
    ] = False,
    llm: Annotated[
        str | None,
        typer.Option(
            "--llm",
            metavar="COMMAND",
            help='LLM command: prompt on stdin, answer on stdout ("llm -m X", "claude -p").',
        ),
    ] = None,
    final_llm: Annotated[
        str | None,
        typer.Option(
            "--final-llm",
            metavar="COMMAND",
            help="Command for the final synthesis (default: --llm).",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", help="Seconds one LLM call may take.")
    ] = 600.0,
    max_calls: Annotated[
        int | None,
        typer.Option(
            "--max-calls", metavar="N", help="Stop before the first call if the run needs more."
        ),
    ] = None,
    run_dir: Annotated[
        Path | None,
        typer.Option(
            "--run-dir",
            metavar="DIR",
            help="Where finished windows are kept (default: the cache folder, "
            "$CTXOPT_CACHE_DIR/analyze-runs/KEY).",
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted run after its last window.")
    ] = False,
    restart: Annotated[
        bool,
        typer.Option("--restart", help="Start over, replacing an interrupted run's windows."),
    ] = False,
    emit_prompts: Annotated[
        bool,
        typer.Option(
            "--emit-prompts", help="Print the window prompts as JSON lines; call nothing."
        ),
    ] = False,
    budget: Annotated[
        int,
        typer.Option(
            "--budget", "-b", metavar="TOKENS", help="Token budget of the offline digest."
        ),
    ] = 8000,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write the report to this file (- is stdout); missing folders are created.",
        ),
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Analyse a document of any size: with --llm through a rolling window with memory,
    without it as an offline digest within --budget tokens."""
    from ctxopt.analyze.api import PlanOptions, prepare, window_prompts
    from ctxopt.analyze.report import plan_dict, plan_text
    from ctxopt.cli.output_file import check_output_target, output_target

    target = output_target(output)
    terminal = Terminal(quiet=quiet)
    options = PlanOptions(
        sources=tuple(files),
        model=model,
        window_tokens=window_tokens,
        overlap=overlap,
        single_pass_tokens=single_pass_tokens,
        memory_chars=memory_chars,
    )
    _check_flags(
        llm=llm,
        final_llm=final_llm,
        timeout=timeout,
        budget=budget,
        plan=plan,
        emit_prompts=emit_prompts,
        resume=resume,
        restart=restart,
        max_calls=max_calls,
    )
    if target is not None:
        check_output_target(target)  # before any call is paid for
    prepared = prepare(options, sys.stdin.buffer)
    summary = plan_dict(
        prepared.layout,
        prepared.limits,
        prepared.spend,
        memory_chars=memory_chars,
        model=prepared.model.name if prepared.model else None,
    )
    if plan:
        _emit(terminal, json.dumps(summary, indent=2) if as_json else plan_text(summary), target)
        return
    if emit_prompts:
        records = window_prompts(prepared)
        if as_json:  # one JSON value, as every --json gives
            _emit(terminal, json.dumps(records, indent=2, ensure_ascii=False), target)
        else:  # JSON lines, one window a line
            lines = [json.dumps(record, ensure_ascii=False) for record in records]
            _emit(terminal, "\n".join(lines), target)
        return
    if llm is None:
        from ctxopt.cli.analyze_render import run_digest

        run_digest(
            terminal,
            prepared,
            summary,
            budget=budget,
            memory_chars=memory_chars,
            cache_dir=_model_cache(),
            as_json=as_json,
            output=target,
        )
        return
    from ctxopt.cli.analyze_render import run_llm

    partial = run_llm(
        terminal,
        prepared,
        summary,
        llm=llm,
        final_llm=final_llm or llm,
        timeout=timeout,
        memory_chars=memory_chars,
        run_dir=run_dir,
        cache_dir=_model_cache(),
        resume=resume,
        restart=restart,
        max_calls=max_calls,
        as_json=as_json,
        output=target,
    )
    if partial:
        raise typer.Exit(EXIT_PARTIAL)


def _check_flags(
    *,
    llm: str | None,
    final_llm: str | None,
    timeout: float,
    budget: int,
    plan: bool,
    emit_prompts: bool,
    resume: bool,
    restart: bool,
    max_calls: int | None,
) -> None:
    import math

    from ctxopt.errors import UsageError

    if plan and emit_prompts:
        raise UsageError("give --plan or --emit-prompts, not both")
    if resume and restart:
        raise UsageError("give --resume or --restart, not both")
    if llm is None and (final_llm is not None or resume or restart):
        flag = "--final-llm" if final_llm is not None else "--resume/--restart"
        raise UsageError(f"{flag} needs --llm (without it the digest runs offline)")
    if not math.isfinite(timeout) or timeout <= 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {timeout:g}")
    if budget < 1:
        raise UsageError(f"--budget must be at least 1 token, got {budget}")
    if max_calls is not None and max_calls < 0:
        raise UsageError(f"--max-calls must be 0 or more, got {max_calls}")
    if llm is not None and not (plan or emit_prompts):
        from ctxopt.analyze.llm import command_argv

        command_argv(llm)
        if final_llm is not None:
            command_argv(final_llm)


def _emit(terminal: Terminal, text: str, output: Path | None) -> None:
    if output is not None:
        from ctxopt.cli.output_file import write_output

        write_output(output, text if text.endswith("\n") else text + "\n")
    else:
        terminal.payload(text)


def _model_cache() -> Path:
    """The cache folder of the settings layers (CTXOPT_CACHE_DIR, config files, else the user
    cache): where the static model and the run folders live."""
    from ctxopt.cli.settings import settings_from_flags

    return settings_from_flags(None).model_cache
