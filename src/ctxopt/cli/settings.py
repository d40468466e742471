"""Building Settings from a command's flags (flags win over every other layer)."""

from __future__ import annotations

from pathlib import Path

from ctxopt.app.remote import open_repository, update_clone_index
from ctxopt.cli.console import Terminal
from ctxopt.config.settings import Settings, load_settings
from ctxopt.discover.remote import is_bare_repository
from ctxopt.discover.root import RootFound, find_root, indexed_repository_around
from ctxopt.errors import UsageError


def settings_from_flags(
    path: str | None,
    *,
    terminal: Terminal | None = None,
    announce_root: bool = False,
    ref: str | None = None,
    index_clone: bool = False,
    **flags: object,
) -> Settings:
    """Settings for the repository at path (None: found from the current folder, as git
    finds its work tree) with the given flag values (None = not given).

    A repository URL as path is cloned into the cache (or fetched) at ref first; with
    index_clone the clone's index is then brought up to date with that ref.  With a
    terminal, notes on the clone and the config files' warnings (unknown keys...) go to its
    stderr, and with announce_root a repository found above the current folder is named
    there, as is the git repository that ignores the folder (read as a plain folder).
    """
    refuse_empty({"path": path, "ref": ref, **flags})
    if path is None:
        path = _bare_repository_around(Path.cwd())  # read as one given (cloned), never walked
    notify = terminal.info if terminal is not None else None
    repository = open_repository(path, ref, notify=notify)
    found = find_root(repository.folder)
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
        if announce_root and found.ignored_by is not None:
            terminal.info(
                f"{found.root} is ignored by the enclosing git repository at "
                f"{found.ignored_by}, so it is read as a plain folder"
            )
        elif found.how is RootFound.IGNORED and (around := indexed_repository_around(found)):
            terminal.info(
                f"{found.root} is ignored by the git repository at {around}, so it is read on "
                f"its own; --path {around} uses that repository's index"
            )
        for warning in settings.warnings:
            terminal.warn(warning)
    if repository.remote is not None and index_clone:
        update_clone_index(settings, notify=notify)
    return settings


def _bare_repository_around(folder: Path) -> str | None:
    """The bare repository folder holds (itself, or one above it, as in its `refs/` or
    `hooks/`), unless a work tree comes first."""
    for candidate in (folder, *folder.parents):
        if is_bare_repository(candidate):
            return str(candidate)
        if (candidate / ".git").exists():
            return None
    return None


def refuse_empty(flags: dict[str, object]) -> None:
    """A flag given an empty text (`--model ""`, often an unset shell variable; one of a
    repeatable flag's, `--glob ""`) is a usage error, not the flag left out."""
    for name, value in flags.items():
        values = value if isinstance(value, list | tuple) else [value]  # a repeatable flag
        if any(isinstance(text, str) and not text.strip() for text in values):
            flag = name.replace("_", "-")
            raise UsageError(f"--{flag} is empty: give it a value or leave it out")
