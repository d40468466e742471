"""Options shared by every command, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

PathOption = Annotated[
    Path | None,
    typer.Option("--path", help="Repository folder (default: the current directory)."),
]
DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Index folder (default: PATH/.ctxopt). Env: CTXOPT_DB."),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON object on stdout instead of tables.")
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary.")]
