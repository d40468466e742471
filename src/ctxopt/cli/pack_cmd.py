"""`ctxopt pack`: the best prompt for a task within a token budget, on stdout."""

from __future__ import annotations

from typing import Annotated

import typer

from ctxopt.cli.clipboard import copy_to_clipboard, find_clipboard
from ctxopt.cli.console import Terminal
from ctxopt.cli.options import (
    GLOB_HELP,
    KIND_HELP,
    LANG_HELP,
    DbOption,
    JsonOption,
    PathOption,
    QuietOption,
    RefOption,
    repeatable,
)
from ctxopt.cli.output_file import output_target, write_output
from ctxopt.cli.rerank_flag import RerankOption
from ctxopt.cli.secrets_flag import AllowSecretsOption, allow_secrets_flag, warn_if_allowed
from ctxopt.cli.settings import refuse_empty, settings_from_flags
from ctxopt.cli.task_text import HELP as TASK_HELP
from ctxopt.cli.task_text import task_text

_CHANGE_ANYWAY = " A change's own chunks go in regardless."


def pack(
    task: Annotated[str, typer.Argument(metavar="TASK", help=TASK_HELP, show_default=False)],
    *,
    path: PathOption = None,
    ref: RefOption = None,
    db: DbOption = None,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            "-b",
            metavar="TOKENS",
            help="Token budget of the whole prompt, task and headers included (default 8000; "
            "wins over --model).",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-m",
            metavar="NAME",
            help="Target model: its window minus --reserve is the budget.",
        ),
    ] = None,
    reserve: Annotated[
        float | None,
        typer.Option(
            "--reserve",
            metavar="SHARE",
            help="Share of --model's window kept for the answer (default 0.2); with --budget, "
            "or without --model, it does nothing (a warning says so).",
        ),
    ] = None,
    compression: Annotated[
        str | None,
        typer.Option(
            "--compression",
            "-c",
            metavar="LEVEL",
            help="none, light (default), medium or aggressive; any case.",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="markdown (default), xml or plain; any case.",
        ),
    ] = None,
    line_numbers: Annotated[
        bool, typer.Option("--line-numbers", help="Number the lines of code shown whole.")
    ] = False,
    edges: Annotated[
        bool,
        typer.Option("--edges", help="Most relevant files first and last (lost in the middle)."),
    ] = False,
    no_overview: Annotated[
        bool, typer.Option("--no-overview", help="No repository structure section.")
    ] = False,
    max_chunks_per_file: Annotated[
        int | None,
        typer.Option(
            "--max-chunks-per-file",
            metavar="N",
            help=(
                "Chunks per file at most, unless the task names the file (default 8, or one "
                "per 1,300 tokens of budget when more: 12 at 16k, not applied to the few files "
                "the ranking is clearly about, and lifted for room left at the end)."
            ),
        ),
    ] = None,
    glob: Annotated[
        list[str] | None, repeatable("--glob", "GLOB", GLOB_HELP + _CHANGE_ANYWAY)
    ] = None,
    lang: Annotated[
        list[str] | None, repeatable("--lang", "LANG", LANG_HELP + _CHANGE_ANYWAY)
    ] = None,
    kind: Annotated[
        list[str] | None, repeatable("--kind", "KIND", KIND_HELP + _CHANGE_ANYWAY)
    ] = None,
    diff: Annotated[
        bool,
        typer.Option(
            "--diff",
            help="Pack for the work tree's change against HEAD (or against --diff-ref).",
        ),
    ] = False,
    diff_ref: Annotated[
        str | None,
        typer.Option(
            "--diff-ref",
            metavar="REF",
            help="Pack for the work tree's change against REF (a commit, branch or tag).",
        ),
    ] = None,
    staged: Annotated[
        bool,
        typer.Option(
            "--staged",
            help="Pack for the staged change (against HEAD, or --diff-ref).",
        ),
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write the prompt to FILE instead of stdout (- is stdout); missing folders "
            "are created.",
        ),
    ] = None,
    copy: Annotated[
        bool,
        typer.Option(
            "--copy",
            help="Put the prompt on the clipboard instead of stdout (wl-copy, xclip, xsel, "
            "pbcopy); where there is none, one error line and exit 1.",
        ),
    ] = False,
    no_refresh: Annotated[
        bool, typer.Option("--no-refresh", help="Don't re-index changed files first; warn.")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="On stderr: why each chunk was picked or dropped.")
    ] = False,
    rerank: RerankOption = None,
    allow_secrets: AllowSecretsOption = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Pack the code a task needs into one prompt that fits the budget, on stdout (or -o FILE,
    or the clipboard with --copy).

    With --json, stdout holds one JSON object instead: the prompt, its chunks and why each was
    picked, the savings and the model advice. The summary goes to stderr.
    """
    from ctxopt.app.pack import refresh_then_pack
    from ctxopt.cli.render_pack import pack_explain, pack_json, pack_summary
    from ctxopt.discover.changes import ChangeRequest
    from ctxopt.pack.api import PackOptions

    task = task_text(task)
    target = output_target(output)
    refuse_empty({"diff_ref": diff_ref, "glob": glob})  # `--diff-ref "$BASE"`, BASE unset
    terminal = Terminal(quiet=quiet)
    clipboard = find_clipboard() if copy else None  # before any work: a headless machine says so
    settings = settings_from_flags(
        path,
        terminal=terminal,
        ref=ref,
        index_clone=True,
        db=db,
        budget=budget,
        model=model,
        reserve=reserve,
        compression=compression,
        format=fmt,
        max_chunks_per_file=max_chunks_per_file,
        allow_secrets=allow_secrets_flag(allow_secrets),
        rerank=rerank,
    )
    warn_if_allowed(terminal, settings)
    options = PackOptions(
        task=task,
        budget=budget if budget is not None else (None if settings.model else settings.budget),
        model=settings.model,
        reserve=settings.reserve,
        compression=settings.compression,
        format=settings.format,
        line_numbers=line_numbers,
        order="edges" if edges else "relevance",
        overview=not no_overview,
        globs=tuple(glob or ()),
        languages=tuple(lang or ()),
        kinds=tuple(kind or ()),
    )
    change = ChangeRequest(ref=diff_ref, staged=staged) if diff or diff_ref or staged else None
    result = refresh_then_pack(
        settings, options, refresh=not no_refresh, change=change, notify=terminal.info
    )
    for warning in result.warnings:  # a stale index's count of files among them
        terminal.warn(warning)
    if target is not None:
        write_output(target, result.prompt)
    if clipboard is not None:
        copy_to_clipboard(clipboard, result.prompt)
    if as_json:
        terminal.json(pack_json(result, explain=explain))
    elif target is None and clipboard is None:
        terminal.payload(result.prompt)
    if explain:
        pack_explain(terminal, result)
    if not quiet:
        pack_summary(terminal, result, target, clipboard=clipboard.name if clipboard else None)
