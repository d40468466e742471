"""Options shared by every command, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

PathOption = Annotated[
    Path | None,
    typer.Option("--path", metavar="PATH", help="Repository folder (default: the current folder)."),
]
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", metavar="DIR", help="Index folder (default: PATH/.ctxopt). Env: CTXOPT_DB."
    ),
]
JsonOption = Annotated[
    bool,
    typer.Option("--json", help="Print one JSON value on stdout; messages stay on stderr."),
]
QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="No progress or summary on stderr (warnings and errors still show)."
    ),
]
