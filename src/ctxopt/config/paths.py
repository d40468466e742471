"""Resolving the repository folder a command works on, and telling local index paths from
object-store locations."""

from __future__ import annotations

from pathlib import Path

from ctxopt.errors import UsageError

INDEX_DIR = ".ctxopt"  # the index folder inside a repository


def resolve_root(path: Path | None) -> Path:
    """The absolute repository folder; a one-line UsageError when it is not a folder."""
    root = Path(path or Path.cwd()).expanduser()
    if not root.exists():
        raise UsageError(f"{root} does not exist; pass the repository folder")
    if not root.is_dir():
        raise UsageError(f"{root} is not a folder; pass the repository folder")
    return root.resolve()


def is_object_store(location: Path | str) -> bool:
    """An object-store location (s3://, gs://, ...) rather than a local folder."""
    return "://" in str(location)


def user_cache() -> Path:
    """ctxopt's folder in the user cache (platformdirs: XDG_CACHE_HOME, ~/Library/Caches...)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("ctxopt"))
