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
        "--db",
        metavar="DIR|URI",
        help="Index folder (default: PATH/.ctxopt), or s3://, gs://, az://BUCKET/PREFIX for a "
        "shared index (credentials as the cloud's CLI reads them). Env: CTXOPT_DB; "
        "CTXOPT_STORAGE_ENDPOINT (or AWS_ENDPOINT_URL) for an S3-compatible server.",
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

# The filters of `query` and `pack` (pack's help adds that a change's own chunks go in anyway).
LANG_HELP = "Only this language, by name or extension (py, .rs); repeatable, any case."
KIND_HELP = (
    "Only this chunk kind (function, method, class, interface, type, constant, module, test, "
    "config, doc); repeatable, any case."
)
GLOB_HELP = "Only paths matching (gitignore syntax; `!tests/**`: all but those); repeatable."


def repeatable(flag: str, metavar: str, help: str) -> typer.models.OptionInfo:
    """A flag given once per value (`--lang py --lang rs`), as a list."""
    return typer.Option(flag, metavar=metavar, help=help)  # type: ignore[no-any-return]
