"""The freshness snapshot: what the work tree and the index folder looked like, at the stat
level, the last time the index was found (or made) fresh.

When git lists the same paths, every path has the same stat signature (mode, size, mtime,
ctime, inode; a symlink's target too) and every file of the index folder is as it was, a
refresh would find nothing to do, so the check needs neither the index (no Lance import)
nor a read of any file.  Anything else, and the caller runs the full check.  The signatures
are taken *before* the full check or the index run they vouch for reads a file, so a file
changed meanwhile differs from its signature next time.  Inside git only.

A checkout that reads a shared index on object storage (`--db s3://...`) keeps its snapshot
in the user cache (`shared_folder`), keyed on the index's commit marker instead of the
index folder's files: a new commit by CI (any write) changes the marker.  Only the query
and pack check uses it (`capture(..., shared=True)`); `ctxopt index` always runs there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ctxopt import __version__
from ctxopt.chunking import CHUNKER_VERSION
from ctxopt.config.paths import is_object_store, user_cache
from ctxopt.config.settings import Settings
from ctxopt.discover.git import head_commit
from ctxopt.discover.listing import git_listing
from ctxopt.index.lock import LOCK_NAME, holder
from ctxopt.index.scope import RESET, SCOPE_FIELDS
from ctxopt.types import IndexStats

SNAPSHOT_NAME = "fresh.json"
SNAPSHOT_FORMAT = 2  # 2: an index that vouches for itself holds its history table
_NOT_STATE = frozenset({SNAPSHOT_NAME, LOCK_NAME, ".gitignore"})  # not the index's content

Signature = tuple[int, ...] | None


@dataclass(frozen=True)
class TreeState:
    """Git's listing with each path's signature, and the key of everything else that
    decides a refresh (settings, ctxopt's version, the index folder's files)."""

    key: str
    top: str  # git's top folder
    paths: dict[str, Signature]


@dataclass(frozen=True)
class Figures:
    """What a `ctxopt index` that finds nothing to do reports (IndexStats without timing)."""

    head: str  # the commit the index was made at
    files: int
    chunks: int
    tokens: int
    languages: dict[str, dict[str, int]]
    skipped: dict[str, int]
    embedder: str

    @classmethod
    def of(cls, stats: IndexStats, head: str) -> Figures:
        return cls(
            head, stats.files, stats.chunks, stats.tokens, stats.languages, stats.skipped,
            stats.embedder,
        )  # fmt: skip

    def stats(self, db: Path, seconds: float) -> IndexStats:
        return IndexStats(
            files=self.files, chunks=self.chunks, tokens=self.tokens, languages=self.languages,
            skipped=self.skipped, seconds=round(seconds, 3), embedder=self.embedder,
            db_path=str(db),
        )  # fmt: skip


def signature(path: str) -> Signature:
    """The path's lstat (and its target's stat for a symlink); None when it is gone."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    own = (info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    if not stat.S_ISLNK(info.st_mode):
        return own
    try:
        target = os.stat(path)
    except OSError:
        return own
    return (*own, target.st_mode, target.st_size, target.st_mtime_ns, target.st_ctime_ns)


def folder_key(db: Path) -> list[list[Any]]:
    """Every file of the index folder with its size and mtime (Lance never rewrites a file
    in place: a new version, index or deletion adds files)."""
    entries = []
    for folder, dirs, files in os.walk(db):
        dirs.sort()
        for name in sorted(files):
            if folder == str(db) and name in _NOT_STATE:
                continue
            full = os.path.join(folder, name)
            with contextlib.suppress(OSError):
                info = os.stat(full)
                entries.append([os.path.relpath(full, db), info.st_size, info.st_mtime_ns])
    return entries


def index_folder(settings: Settings) -> Path:
    """The local index folder of settings: snapshots are kept only for one (capture gives
    None for an index on object storage, so no snapshot reaches the callers of this)."""
    db = settings.db_path
    if not isinstance(db, Path):
        raise ValueError(f"no snapshot is kept for an index on object storage ({db})")
    return db


def shared_folder(settings: Settings) -> Path:
    """The local folder keeping this checkout's snapshot against a shared index (and its
    hash cache, hash_cache.py): one per work tree and index URI, in the user cache."""
    name = hashlib.sha1(f"{settings.root}\0{settings.db_path}".encode()).hexdigest()[:20]
    return user_cache() / "shared" / name


def state_folder(settings: Settings) -> Path:
    """Where the snapshot of settings is kept: the index folder, or for an index on object
    storage the checkout's folder in the user cache."""
    db = settings.db_path
    return db if isinstance(db, Path) else shared_folder(settings)


def _marker_key(settings: Settings) -> list[list[Any]] | None:
    """The shared index's commit marker as a key (None: no marker, or it cannot be read)."""
    from ctxopt.errors import CtxoptError
    from ctxopt.index.commit import MARKER
    from ctxopt.index.location import locate

    try:
        marker = locate(settings.db_path).read_text(MARKER)
    except (OSError, CtxoptError):
        return None
    return None if marker is None else [[MARKER, marker]]


def capture(settings: Settings, *, shared: bool = False) -> TreeState | None:
    """The state now; None when no snapshot applies (outside git; an index on object storage
    unless shared, which keys it on the index's commit marker)."""
    remote = is_object_store(settings.db_path)
    if remote and not shared:
        return None
    listing = git_listing(settings.root, [] if remote else [index_folder(settings)])
    if listing is None:
        return None
    top, paths = listing
    folder = _marker_key(settings) if remote else folder_key(index_folder(settings))
    if folder is None:
        return None
    root = str(settings.root)
    signatures = {rel: signature(f"{root}/{rel}") for rel in paths}
    return TreeState(_key(settings, str(top), folder), str(top), signatures)


def _key(settings: Settings, top: str, folder: list[list[Any]]) -> str:
    decides = {
        "format": SNAPSHOT_FORMAT,
        "version": __version__,
        "chunker": CHUNKER_VERSION,  # a new chunker re-chunks every file, at the same version
        "root": str(settings.root),
        "top": top,
        "db": str(settings.db_path),
        "include": list(settings.include),
        "exclude": list(settings.exclude),
        "max_file_bytes": settings.max_file_bytes,
        "history_commits": settings.history_commits,
        "reset_scope": any(settings.source(name) == RESET for name in SCOPE_FIELDS),
        "folder": folder,
    }
    text = json.dumps(decides, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _file(db: Path) -> Path:
    return db / SNAPSHOT_NAME


def load(db: Path) -> tuple[TreeState, Figures | None] | None:
    """The saved snapshot; None when there is none or it is unreadable."""
    try:
        data = json.loads(_file(db).read_text(encoding="utf-8"))
        if data["format"] != SNAPSHOT_FORMAT:
            return None
        paths = {p: (tuple(s) if s is not None else None) for p, s in data["paths"].items()}
        figures = Figures(**data["figures"]) if data["figures"] else None
        return TreeState(data["key"], data["top"], paths), figures
    except (OSError, ValueError, KeyError, TypeError):
        return None


def matches(db: Path, now: TreeState) -> tuple[bool, Figures | None]:
    """Whether the saved snapshot holds for the state now, and its figures if it does."""
    saved = load(db)
    if saved is None or saved[0] != now:
        return False, None
    return True, saved[1]


def save(db: Path, state: TreeState, figures: Figures | None = None) -> None:
    """Keep state as the last fresh one (best effort: a read-only folder keeps none)."""
    payload = {
        "format": SNAPSHOT_FORMAT,
        "key": state.key,
        "top": state.top,
        "paths": state.paths,
        "figures": figures.__dict__ if figures else None,
    }
    temporary = db / f".{SNAPSHOT_NAME}.{os.getpid()}.tmp"
    with contextlib.suppress(OSError):
        temporary.write_text(json.dumps(payload), encoding="utf-8")
        os.replace(temporary, _file(db))


def discard(db: Path) -> None:
    with contextlib.suppress(OSError):
        _file(db).unlink()


def after_own_run(settings: Settings, before: TreeState) -> TreeState | None:
    """The tree as captured before an index run, keyed on the index folder as the run left
    it; None when another run may have written since (its pid holds the lock file)."""
    db = index_folder(settings)
    if holder(db) != os.getpid():
        return None
    folder = folder_key(db)
    if holder(db) != os.getpid():
        return None
    return TreeState(_key(settings, before.top, folder), before.top, before.paths)


def current_head(settings: Settings) -> str:
    return head_commit(settings.root)
