"""`ctxopt index`: build or refresh the index of a repository."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from ctxopt.cli.console import BarProgress, Terminal
from ctxopt.cli.options import DbOption, JsonOption, PathOption, QuietOption, RefOption
from ctxopt.cli.settings import settings_from_flags
from ctxopt.config.settings import Settings
from ctxopt.errors import InterruptedRun, UsageError
from ctxopt.index.commit import AfterInterrupt, after_interrupt, safe_read_commit
from ctxopt.index.scope import SCOPE_FIELDS
from ctxopt.types import IndexStats

INTERRUPTED = {
    AfterInterrupt.UNCHANGED: "the previous index at {db} is unchanged",
    AfterInterrupt.COMMITTED: "the index at {db} had already been completed",
    AfterInterrupt.INCOMPLETE: "the index at {db} is incomplete; run `ctxopt index` to finish it",
    AfterInterrupt.NOTHING: "no index was written",
}


def interrupted_message(db: Path | str, state: AfterInterrupt) -> str:
    return "interrupted: " + INTERRUPTED[state].format(db=db)


def index(
    target: Annotated[
        str | None,
        typer.Argument(
            metavar="PATH",
            help="Repository folder or URL, as --path (default: the current folder).",
            show_default=False,
        ),
    ] = None,
    *,
    path: PathOption = None,
    ref: RefOption = None,
    db: DbOption = None,
    full: Annotated[bool, typer.Option("--full", help="Rebuild from scratch.")] = False,
    embedder: Annotated[
        str | None,
        typer.Option(
            "--embedder",
            metavar="NAME",
            help="static (default, fast) or minilm (better ranking, slow); any case. "
            "Env: CTXOPT_EMBEDDER.",
        ),
    ] = None,
    include: Annotated[
        list[str] | None,
        typer.Option(
            "--include", metavar="GLOB", help="Only index paths matching this glob; repeatable."
        ),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude", metavar="GLOB", help="Skip paths matching this glob; repeatable."
        ),
    ] = None,
    max_file_bytes: Annotated[
        int | None,
        typer.Option(
            "--max-file-bytes", metavar="BYTES", help="Skip larger files (default 1 MiB)."
        ),
    ] = None,
    reset_scope: Annotated[
        bool,
        typer.Option(
            "--reset-scope",
            help="Forget the --include, --exclude and --max-file-bytes the index was built "
            "with: this run and later ones use only the config files, variables and this "
            "run's flags.",
        ),
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            metavar="N",
            min=1,
            help="Worker processes that chunk and embed, fed shards of about equal tokens "
            "(default: the processors available). Every parse runs in a worker, so a grammar "
            "that crashes or hangs costs only its file.",
            show_default=False,
        ),
    ] = None,
    wait: Annotated[
        bool,
        typer.Option("--wait", help="If another `ctxopt index` runs on this index, wait for it."),
    ] = False,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="After indexing, keep the index current as files change (one line per "
            "update on stderr) until Ctrl-C.",
        ),
    ] = False,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Index a repository: chunk, count, embed and store its code under PATH/.ctxopt/.

    Incremental: only added and changed files are chunked and embedded again. PATH may be
    a repository URL: it is cloned into the cache (or fetched) at --ref first. With --json,
    stdout holds one JSON object of the run's figures. With the setting auto_tune
    (CTXOPT_AUTO_TUNE=1) it then fits the ranking weights to the recent commits when due,
    as `ctxopt tune` does.
    """
    from ctxopt.app.auto_tune import tune_when_due
    from ctxopt.app.index import index_repository
    from ctxopt.discover.remote import remote_repo
    from ctxopt.index.scope import with_stored_scope, without_stored_scope

    location = target or path
    if watch and as_json:
        raise UsageError("--watch reports on stderr as it goes; it does not combine with --json")
    if watch and location and remote_repo(location):
        raise UsageError("--watch needs a local folder; a repository URL's clone does not change")
    terminal = Terminal(quiet=quiet)  # --json: the figures on stdout, notes still on stderr
    settings = settings_from_flags(
        location,
        terminal=terminal,
        announce_root=True,
        ref=ref,
        db=db,
        embedder=embedder,
        include=tuple(include) if include else None,
        exclude=tuple(exclude) if exclude else None,
        max_file_bytes=max_file_bytes,
    )
    if reset_scope:
        settings = without_stored_scope(settings)
    progress = BarProgress(terminal)
    before = safe_read_commit(settings.db_path)
    try:
        stats = index_repository(settings, full=full, progress=progress, wait=wait, workers=workers)
    except KeyboardInterrupt:
        progress.stop()
        state = after_interrupt(settings.db_path, before)
        raise InterruptedRun(interrupted_message(settings.db_path, state)) from None
    finally:
        progress.stop()
    after = safe_read_commit(settings.db_path)  # the scope the run used, a stored one included
    scope = with_stored_scope(settings, after.scope if after else None)
    if not as_json:
        _kept_scope_note(terminal, settings, scope)
        _summary(terminal, stats, quiet=quiet, globs=_globs_in_force(scope))
    try:
        tuned = tune_when_due(settings, stats.embedder, notify=terminal.info)
    except KeyboardInterrupt:
        raise InterruptedRun(
            f"interrupted while tuning the ranking weights: the index at {settings.db_path} is "
            "complete and the weights in force are unchanged"
        ) from None
    if as_json:
        terminal.json({**asdict(stats), "tuned": tuned.to_json() if tuned else None})
        return
    if tuned is not None and not tuned.skipped:
        from ctxopt.cli.render_tune import verdict

        terminal.info(f"ranking weights: {verdict(tuned)} ({tuned.seconds:.1f} s)")
    if watch:
        from ctxopt.cli.index_watch import watch_until_interrupted

        watch_until_interrupted(terminal, settings)


def _kept_scope_note(terminal: Terminal, settings: Settings, scope: Settings) -> None:
    """Say which of --include, --exclude and --max-file-bytes came from the index itself (a
    config file or flag that no longer sets them does not undo them; --reset-scope does)."""
    kept = [
        f"--{name.replace('_', '-')} {_scope_value(getattr(scope, name))}"
        for name in SCOPE_FIELDS
        if getattr(scope, name) != getattr(settings, name)
    ]
    if kept:
        terminal.info(
            f"scope kept from the index: {'; '.join(kept)} (`ctxopt index --reset-scope` "
            "forgets it)"
        )


def _globs_in_force(scope: Settings) -> str:
    """`--include A; --exclude B` for the globs a run used, "" for none."""
    globs = {"include": scope.include, "exclude": scope.exclude}
    return "; ".join(f"--{name} {' '.join(value)}" for name, value in globs.items() if value)


def _scope_value(value: object) -> str:
    return " ".join(value) if isinstance(value, tuple) else f"{value}"


def _summary(terminal: Terminal, stats: IndexStats, *, quiet: bool, globs: str = "") -> None:
    """The run's warnings, then (unless quiet) its figures, on stderr."""
    for warning in stats.warnings[:20]:
        terminal.warn(warning)
    if len(stats.warnings) > 20:
        terminal.warn(f"... and {len(stats.warnings) - 20} more")
    if not quiet:
        from ctxopt.cli.render_stats import index_summary  # here: rich tables only when shown

        index_summary(terminal, stats, globs)
