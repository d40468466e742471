"""One writer per index: an advisory lock file in a local index folder, a lease object on
object storage (lease.py says what that guarantees).

``fcntl.flock`` locks belong to the open file, so the kernel releases them when the
process dies, however it dies (SIGKILL included): a stale lock file never blocks a run.
Readers never take the lock; they read the last committed version (see commit.py).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ctxopt.config.paths import DbLocation
from ctxopt.errors import IndexBusyError, IndexReadOnlyError, Worded, wait_words
from ctxopt.index.lease import lease_lock
from ctxopt.index.location import RemoteIndex, locate

LOCK_NAME = "index.lock"
REFRESH = "refresh"  # the lock file's second line while a refresh holds it

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; runs are not serialised there
    fcntl = None  # type: ignore[assignment]


def lock_path(db: Path) -> Path:
    return db / LOCK_NAME


def holder(db: Path) -> int | None:
    """The pid written by the process holding (or last holding) the lock, if readable."""
    first = _lock_lines(db)[:1]
    return int(first[0]) if first and first[0].isdigit() else None


def held_for_refresh(db: Path, *, settle_s: float = 0.5) -> bool:
    """Whether the lock's holder (or last holder) is the short refresh before a query or a
    pack, rather than a `ctxopt index` run of any length.  A holder that has just taken the
    lock writes its note a moment later: an empty note is read again for up to settle_s."""
    deadline = time.monotonic() + settle_s
    lines = _lock_lines(db)
    while not lines and time.monotonic() < deadline:
        time.sleep(0.02)
        lines = _lock_lines(db)
    return lines[1:2] == [REFRESH]


def running_builder(db: DbLocation) -> int | None:
    """The pid of another process holding the local index's lock now, as one does while it
    builds an index not yet complete; None for object storage or when no one holds it.

    Read from the kernel's table of file locks (/proc/locks, Linux): taking the lock to test
    it, even for a moment, could turn away a run starting then.  Elsewhere, None."""
    if not isinstance(db, Path):
        return None
    try:
        info = os.stat(lock_path(db))
        with open("/proc/locks", encoding="ascii") as table:
            rows = table.read().splitlines()
    except OSError:
        return None
    place = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for row in rows:
        fields = row.split()
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == place:
            pid = int(fields[4]) if fields[4].isdigit() else 0
            return pid if pid and pid != os.getpid() else None
    return None


def building_message(db: DbLocation, pid: int) -> str:
    return (
        f"the index at {db} is being built by another ctxopt index (pid {pid}); try again when "
        "it ends, or run `ctxopt index --wait`, which waits for it"
    )


def _lock_lines(db: Path) -> list[str]:
    try:
        return lock_path(db).read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return []


def busy_message(db: Path, pid: int | None) -> Worded:
    who = f" (pid {pid})" if pid else ""
    return lambda names: f"another ctxopt index is running on {db}{who}; {wait_words(names)}"


@contextlib.contextmanager
def index_lock(
    db: DbLocation,
    *,
    wait: bool = False,
    notify: Callable[[str], None] | None = None,
    refresh: bool = False,
) -> Iterator[None]:
    """Hold the index's write lock for the block.  Without wait, a held lock raises
    IndexBusyError at once; with wait, block until the other run ends (Ctrl-C still works).
    refresh: the holder is a query's or a pack's refresh (noted in a local lock file, so
    another caller may wait for it).  A local folder must exist."""
    location = locate(db)
    if isinstance(location, RemoteIndex):
        with lease_lock(location, wait=wait, notify=notify):
            yield
        return
    with _file_lock(location.folder, wait=wait, notify=notify, refresh=refresh):
        yield


@contextlib.contextmanager
def _file_lock(
    db: Path, *, wait: bool, notify: Callable[[str], None] | None, refresh: bool
) -> Iterator[None]:
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(lock_path(db), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:  # EACCES, EROFS: the index can be read, not written
        raise IndexReadOnlyError(
            f"cannot write the index at {db}: {exc.strerror or exc} (its folder is read-only "
            "to you); `query` and `pack` still read it as it is"
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = holder(db)
            if not wait:
                raise IndexBusyError(busy_message(db, pid)) from None
            if notify:
                who = f" (pid {pid})" if pid else ""
                notify(f"waiting for another ctxopt index{who} on {db} to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        note = f"{os.getpid()}\n{REFRESH}\n" if refresh else f"{os.getpid()}\n"
        os.pwrite(fd, note.encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # closing the last descriptor releases the lock
