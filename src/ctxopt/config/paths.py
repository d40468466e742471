"""Resolving the repository folder a command works on, and telling local index paths from
object-store locations."""

from __future__ import annotations

import os
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


DbLocation = Path | str  # an index: a local folder (Path) or an object-store URI (str)
OBJECT_SCHEMES = ("s3", "gs", "az")  # S3 and compatible servers, GCS, Azure: what Lance reaches


def is_object_store(location: Path | str) -> bool:
    """An object-store location (s3://, gs://, ...) rather than a local folder."""
    return "://" in str(location)


def object_store_uri(text: str) -> str:
    """A checked object-store URI (scheme in lower case, no trailing slash); ValueError naming
    the accepted forms when the scheme is unknown or the bucket is missing."""
    scheme, _, rest = text.partition("://")
    accepted = ", ".join(f"{s}://BUCKET/PREFIX" for s in OBJECT_SCHEMES)
    if scheme.lower() not in OBJECT_SCHEMES:
        raise ValueError(f"takes a local folder or {accepted}")
    bucket = rest.partition("/")[0]  # `s3:///x` names no bucket (not bucket x)
    if not bucket:
        raise ValueError(f"names no bucket; give {accepted}")
    return f"{scheme.lower()}://{rest.strip('/')}"


def user_cache() -> Path:
    """ctxopt's folder in the user cache (platformdirs: XDG_CACHE_HOME, ~/Library/Caches...)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("ctxopt"))


def is_utf8(name: str) -> bool:
    """Whether a name read from disk is valid UTF-8: one that was not holds lone surrogates
    (Python's surrogateescape), which no UTF-8 library (LanceDB, the tokenizers) takes."""
    if name.isascii():
        return True
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_path(name: str) -> str:
    """A name read from disk as it can be printed: bytes that are not UTF-8 as \\xNN."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")
