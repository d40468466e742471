"""Options shared by every command, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

PathOption = Annotated[
    str | None,
    typer.Option(
        "--path",
        metavar="PATH",
        help="Repository folder (default: the current folder), or a repository URL to clone "
        "into the cache: https://, http://, ssh://, git://, file://, user@host:path or a bare "
        "repository. "
        "Env: CTXOPT_REPOS_DIR (the cache).",
    ),
]
RefOption = Annotated[
    str | None,
    typer.Option(
        "--ref",
        metavar="REF",
        help="With a repository URL: the branch, tag or commit to check out (default: the "
        "remote's HEAD).",
    ),
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
