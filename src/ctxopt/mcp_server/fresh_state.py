"""When a call may skip the freshness check: the server's file watcher saw nothing change
since a check found the index fresh, and nothing else that decides a refresh moved.

A call asks `begin` first.  It answers True (known fresh: no check) only when the watcher
has been live since before the last check that found the index fresh, saw no change under
the repository since, and the index's commit marker, the settings a refresh depends on and
git's own files (its index and exclude files, which decide git's listing without touching
the work tree) are as they were at that check.  Otherwise the call runs the full check and
tells `done` how many files it left stale: none, and the check becomes the new reference.
A call whose drain saw changes does not become the reference (the next call checks again):
a folder created then is watched only once its creation event has been handled.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path

from ctxopt.config.paths import is_object_store
from ctxopt.config.settings import Settings
from ctxopt.discover.git import run_git
from ctxopt.errors import CtxoptError
from ctxopt.index.commit import read_commit
from ctxopt.index.snapshot import signature
from ctxopt.mcp_server.watcher import TreeWatcher

LOG = logging.getLogger("ctxopt.mcp")


@dataclass(frozen=True)
class Reference:
    """What held when a check found the index fresh."""

    key: Hashable
    commit: object


class FreshState:
    def __init__(self) -> None:
        self._watcher: TreeWatcher | None = None
        self._reference: Reference | None = None
        self._git_files: tuple[str, ...] | None = None
        self.skipped = 0  # calls that skipped the check (for tests and benchmarks)

    def begin(self, settings: Settings) -> tuple[bool, Hashable | None]:
        """Whether this call may skip the check, and the key `done` records if not."""
        db = settings.db_path
        if is_object_store(db) or not isinstance(db, Path):
            return False, None
        if self._watcher is None:
            self._start(settings, db)
            return False, self._key(settings) if self._watcher is not None else None
        changed = self._watcher.drain()
        if changed is None:
            LOG.info("the file watcher stopped; checking the repository on each call")
            self._watcher = None
            self._reference = None
            return False, None
        key = self._key(settings)
        if changed:
            self._reference = None
            return False, None
        if self._reference is not None and self._reference == Reference(key, _commit(db)):
            self.skipped += 1
            return True, None
        return False, key

    def done(self, settings: Settings, key: Hashable | None, left_stale: int) -> None:
        """After the call's work: a full check (key from `begin`) that left left_stale files
        differing from the index; key None: the call skipped the check or may not set the
        reference (`begin` already dropped it where needed)."""
        if key is None:
            return
        if left_stale:
            self._reference = None
            return
        self._reference = Reference(key, _commit(settings.db_path))

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.close()
            self._watcher = None

    def _start(self, settings: Settings, db: Path) -> None:
        try:
            self._watcher = TreeWatcher(settings.root, db)
        except Exception as exc:  # no inotify watches left, a backend missing, ...
            LOG.info("no file watcher (%s); checking the repository on each call", exc)
            self._watcher = None

    def _key(self, settings: Settings) -> Hashable:
        if self._git_files is None:
            self._git_files = _git_files(settings.root)
        return (
            str(settings.root),
            str(settings.db_path),
            tuple(settings.include),
            tuple(settings.exclude),
            settings.max_file_bytes,
            tuple(signature(path) for path in self._git_files),
        )


def _commit(db: object) -> object:
    try:
        return read_commit(db)  # type: ignore[arg-type]
    except CtxoptError:
        return object()  # equal to nothing: the next call checks


def _git_files(root: Path) -> tuple[str, ...]:
    """git's index and exclude files for root's repository (none outside git)."""
    with contextlib.suppress(OSError):
        done = run_git(root, "rev-parse", "--absolute-git-dir", "--git-common-dir")
        if done.returncode == 0:
            own, common = done.stdout.decode("utf-8", "replace").splitlines()[:2]
            shared = Path(common) if Path(common).is_absolute() else root / common
            return (
                str(Path(own) / "index"),
                str(Path(own) / "info" / "exclude"),
                str(shared / "info" / "exclude"),
            )
    return ()
