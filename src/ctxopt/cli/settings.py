"""Building Settings from a command's flags (flags win over every other layer)."""

from __future__ import annotations

from pathlib import Path

from ctxopt.cli.console import Terminal
from ctxopt.config.paths import RootFound, find_root
from ctxopt.config.settings import Settings, load_settings


def settings_from_flags(
    path: Path | None,
    *,
    terminal: Terminal | None = None,
    announce_root: bool = False,
    **flags: object,
) -> Settings:
    """Settings for the repository at path (None: found from the current folder, as git
    finds its work tree) with the given flag values (None = not given).

    With a terminal, the config files' warnings (unknown keys...) go to its stderr, and
    with announce_root a repository found above the current folder is named there.
    """
    found = find_root(path)
    settings = load_settings(found.root, {k: v for k, v in flags.items() if v is not None})
    if terminal is not None:
        if (
            announce_root
            and found.how is not RootFound.GIVEN
            and found.root != Path.cwd().resolve()
        ):
            where = "its index" if found.how is RootFound.INDEX else "git"
            terminal.info(
                f"using the repository at {found.root} (found by {where}; --path picks another)"
            )
        for warning in settings.warnings:
            terminal.warn(warning)
    return settings
