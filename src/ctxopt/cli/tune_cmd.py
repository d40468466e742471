"""`ctxopt tune`: fit the ranking weights to the repository's own recent commits."""

from __future__ import annotations

from typing import Annotated

import typer

from ctxopt.cli.console import Terminal
from ctxopt.cli.options import DbOption, JsonOption, PathOption, QuietOption
from ctxopt.cli.settings import settings_from_flags
from ctxopt.config.settings import Settings
from ctxopt.errors import UsageError
from ctxopt.tune import DEFAULT_COMMITS


def tune(
    *,
    path: PathOption = None,
    db: DbOption = None,
    commits: Annotated[
        int | None,
        typer.Option(
            "--commits",
            "-n",
            metavar="N",
            help=f"Read this many recent commits (default {DEFAULT_COMMITS}).",
        ),
    ] = None,
    reset: Annotated[
        bool,
        typer.Option(
            "--reset",
            help="Remove the tuned weights kept with the index: the defaults rank again "
            "(with auto_tune set, the next `ctxopt index` tunes anew).",
        ),
    ] = False,
    json_output: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Fit the ranking weights to this repository's recent commits (message = task, the
    code it changed = answer) and keep them with the index when real packs of the newest
    commits, held out, show more of their changed lines. Your [weights] settings still win."""
    from ctxopt.app.tune import tune as run_tune
    from ctxopt.cli.render_tune import tune_json, tune_text

    terminal = Terminal(quiet=quiet)
    settings = settings_from_flags(path, terminal=terminal, announce_root=True, db=db)
    if reset:
        if commits is not None:
            raise UsageError("--reset reads no commits; give --reset or --commits, not both")
        _reset(terminal, settings, json_output=json_output)
        return
    outcome = run_tune(
        settings, commits=DEFAULT_COMMITS if commits is None else commits, notify=terminal.info
    )
    overridden = sorted(dict(settings.weights))
    if json_output:
        terminal.json(tune_json(outcome, overridden))
    else:
        terminal.payload(tune_text(outcome, overridden))


def _reset(terminal: Terminal, settings: Settings, *, json_output: bool) -> None:
    from ctxopt.index.tuned import forget_tuned

    removed = forget_tuned(settings.db_path)
    if json_output:
        terminal.json({"removed": removed})
    elif removed:
        terminal.payload("tuned weights removed: the default weights rank again")
    else:
        terminal.payload("no tuned weights were kept: the default weights rank already")
