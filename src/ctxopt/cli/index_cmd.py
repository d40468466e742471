"""`ctxopt index`: build or refresh the index of a repository."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from ctxopt.cli.console import BarProgress, Terminal
from ctxopt.cli.options import DbOption, JsonOption, PathOption, QuietOption
from ctxopt.cli.settings import settings_from_flags


def index(
    target: Annotated[
        Path | None, typer.Argument(help="Repository folder (default: the current directory).")
    ] = None,
    *,
    path: PathOption = None,
    db: DbOption = None,
    full: Annotated[bool, typer.Option("--full", help="Rebuild from scratch.")] = False,
    embedder: Annotated[
        str | None,
        typer.Option("--embedder", help="static (default, fast) or minilm. Env: CTXOPT_EMBEDDER."),
    ] = None,
    include: Annotated[
        list[str] | None, typer.Option("--include", help="Only index paths matching this glob.")
    ] = None,
    exclude: Annotated[
        list[str] | None, typer.Option("--exclude", help="Skip paths matching this glob.")
    ] = None,
    max_file_bytes: Annotated[
        int | None,
        typer.Option("--max-file-bytes", help="Skip larger files (default 1 MiB)."),
    ] = None,
    as_json: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Index a repository: chunk, count, embed and store its code under PATH/.ctxopt/."""
    from ctxopt.cli.render_stats import index_summary
    from ctxopt.index.build import build_index

    terminal = Terminal(quiet=quiet or as_json)
    settings = settings_from_flags(
        target or path,
        terminal=terminal,
        announce_root=True,
        db=db,
        embedder=embedder,
        include=tuple(include) if include else None,
        exclude=tuple(exclude) if exclude else None,
        max_file_bytes=max_file_bytes,
    )
    progress = BarProgress(terminal)
    try:
        stats = build_index(settings, full=full, progress=progress)
    finally:
        progress.stop()
    if as_json:
        terminal.json(asdict(stats))
        return
    for warning in stats.warnings[:20]:
        terminal.warn(warning)
    if len(stats.warnings) > 20:
        terminal.warn(f"... and {len(stats.warnings) - 20} more")
    if not quiet:
        index_summary(terminal, stats)
