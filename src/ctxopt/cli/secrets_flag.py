"""`--allow-secrets`, shared by pack and query: outputs show the secrets found in the code."""

from __future__ import annotations

from typing import Annotated

import typer

from ctxopt.cli.console import Terminal
from ctxopt.config.settings import Settings

AllowSecretsOption = Annotated[
    bool,
    typer.Option(
        "--allow-secrets",
        help=(
            "Show secrets found in the code instead of [REDACTED:<kind>] for this run. "
            "Env: CTXOPT_ALLOW_SECRETS."
        ),
    ),
]

WARNING = "secrets are not redacted (--allow-secrets): the output may hold keys and passwords"


def allow_secrets_flag(given: bool) -> bool | None:
    """The flag's value for Settings: None when not given, so config and env apply."""
    return True if given else None


def warn_if_allowed(terminal: Terminal, settings: Settings) -> None:
    """One warning line on stderr when redaction is off (even with --quiet)."""
    if settings.allow_secrets:
        terminal.warn(WARNING)
