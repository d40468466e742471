"""`ctxopt query`: the chunks a task needs, ranked, with the reasons."""

from __future__ import annotations

from typing import Annotated

import typer

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
from ctxopt.cli.rerank_flag import RerankOption
from ctxopt.cli.secrets_flag import AllowSecretsOption, allow_secrets_flag, warn_if_allowed
from ctxopt.cli.settings import refuse_empty, settings_from_flags
from ctxopt.cli.task_text import HELP as TASK_HELP
from ctxopt.cli.task_text import task_text
from ctxopt.config.paths import is_object_store
from ctxopt.wording import plural


def query(
    text: Annotated[str, typer.Argument(metavar="TEXT", help=TASK_HELP, show_default=False)],
    *,
    path: PathOption = None,
    ref: RefOption = None,
    db: DbOption = None,
    k: Annotated[
        int | None,
        typer.Option("-k", "--top", metavar="N", help="How many results (default 10)."),
    ] = None,
    lang: Annotated[list[str] | None, repeatable("--lang", "LANG", LANG_HELP)] = None,
    kind: Annotated[list[str] | None, repeatable("--kind", "KIND", KIND_HELP)] = None,
    glob: Annotated[list[str] | None, repeatable("--glob", "GLOB", GLOB_HELP)] = None,
    no_tests: Annotated[bool, typer.Option("--no-tests", help="Leave tests out.")] = False,
    no_refresh: Annotated[
        bool, typer.Option("--no-refresh", help="Don't re-index changed files first; warn.")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show each factor's share of the score.")
    ] = False,
    rerank: RerankOption = None,
    allow_secrets: AllowSecretsOption = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Rank the code relevant to a task (hybrid full-text, vector, entities and graph).

    A table on stdout, or with --json a list of hits (file, lines, name, score, reasons).
    """
    from ctxopt.app.query import refresh_then_query
    from ctxopt.cli.render_query import query_json, query_summary, query_table
    from ctxopt.errors import UsageError
    from ctxopt.retrieve.search import QueryOptions

    text = task_text(text)
    if not text.strip():
        raise UsageError("the query text is empty; say what the task is")
    refuse_empty({"glob": glob})  # `--glob "$DIR"` with DIR unset: not every path
    terminal = Terminal(quiet=quiet)
    settings = settings_from_flags(
        path,
        terminal=terminal,
        ref=ref,
        index_clone=True,
        db=db,
        top_k=k,
        allow_secrets=allow_secrets_flag(allow_secrets),
        rerank=rerank,
    )
    warn_if_allowed(terminal, settings)
    if settings.top_k <= 0:
        raise UsageError(f"--top must be positive, got {settings.top_k}")
    options = QueryOptions(
        k=settings.top_k,
        languages=tuple(lang or ()),
        kinds=tuple(kind or ()),
        globs=tuple(glob or ()),
        no_tests=no_tests,
        lines_first=True,
    )
    result, freshness = refresh_then_query(
        settings, text, options, refresh=not no_refresh, notify=terminal.info
    )
    if freshness.stale and not freshness.refreshed:
        if freshness.held_back:
            fix = f"not re-indexed: {freshness.held_back}"
        elif is_object_store(settings.db_path):
            fix = f"run `ctxopt index --db {settings.db_path}` to update the shared index"
        else:
            fix = "run `ctxopt index` or drop --no-refresh"
        terminal.warn(
            f"{plural(freshness.stale, 'file')} changed since indexing; results may be stale "
            f"({fix})"
        )
    given = {"--glob": glob, "--lang": lang, "--kind": kind, "--no-tests": no_tests}
    filters = tuple(flag for flag, value in given.items() if value)
    if as_json:
        terminal.json(query_json(result, explain=explain))
        query_summary(terminal, result, filters)  # stderr, as pack --json says what it packed
    else:
        query_table(terminal, result, explain=explain, filters=filters)
