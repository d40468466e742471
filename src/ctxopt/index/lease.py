"""The write lock of an index on object storage: a lease object, renewed while a run writes.

Object stores have no advisory locks and the calls ctxopt makes there have no conditional
put, so the lock is a lease: ``index.lock`` holds its owner (a random id, host and pid)
and an expiry time.  A run that finds another owner's unexpired lease stops with
IndexBusyError (or, with --wait, polls until it ends or expires); otherwise it writes its
own lease, waits a moment and reads it back, and goes on only if the lease is still its
own.  A thread renews it every LEASE_SECONDS / 3 while the run writes; the run deletes it
at the end.  A run that is killed leaves a lease that expires LEASE_SECONDS later, or at
once for a run on the same machine (by host name) whose process is gone.

This is overlap detection, not a mutex: two runs starting within the settle time of each
other on different machines can both pass.  The intended use is one writer per index (a
CI job; concurrency groups keep two of its runs from overlapping) and any number of
readers, which never take the lock: they read the versions the commit marker names, and
each table's Lance commits are atomic on their own.  Expiry compares the writers' clocks,
so they must agree to well within LEASE_SECONDS (NTP does).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ctxopt.errors import IndexBusyError, StorageError, Worded, wait_words
from ctxopt.index.location import RemoteIndex

LEASE_NAME = "index.lock"
LEASE_SECONDS = 60.0
SETTLE_SECONDS = 1.0  # between writing the lease and reading it back
POLL_SECONDS = 2.0  # how often --wait looks again


@dataclass(frozen=True)
class Lease:
    owner: str
    host: str
    pid: int
    expires: float

    def holder(self) -> str:
        return f"{self.host}, pid {self.pid}"


def read_lease(location: RemoteIndex) -> Lease | None:
    """The lease in the store; None when there is none or it is unreadable (a torn or foreign
    object is treated as no lease: it would otherwise block every run forever)."""
    text = location.read_text(LEASE_NAME)
    if text is None:
        return None
    try:
        data = json.loads(text)
        owner, host = str(data["owner"]), str(data["host"])
        return Lease(owner, host, int(data["pid"]), float(data["expires"]))
    except (ValueError, KeyError, TypeError):
        return None


def _write_lease(location: RemoteIndex, owner: str, seconds: float) -> None:
    lease = {
        "owner": owner,
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "expires": time.time() + seconds,
    }
    location.write_text(LEASE_NAME, json.dumps(lease))


def busy_message(location: RemoteIndex, lease: Lease) -> Worded:
    left = max(0, round(lease.expires - time.time()))
    return lambda names: (
        f"another ctxopt index is running on {location} ({lease.holder()}; its lease "
        f"expires in {left} s unless renewed); {wait_words(names)}"
    )


@contextlib.contextmanager
def lease_lock(
    location: RemoteIndex,
    *,
    wait: bool = False,
    notify: Callable[[str], None] | None = None,
    seconds: float = LEASE_SECONDS,
    settle: float = SETTLE_SECONDS,
) -> Iterator[None]:
    """Hold the index's lease for the block (see the module's note on what it guarantees)."""
    owner = uuid.uuid4().hex
    _acquire(location, owner, wait=wait, notify=notify, seconds=seconds, settle=settle)
    stop = threading.Event()
    renewer = threading.Thread(
        target=_renew, args=(location, owner, seconds, stop), name="ctxopt-lease", daemon=True
    )
    renewer.start()
    try:
        yield
    finally:
        stop.set()
        renewer.join()
        with contextlib.suppress(StorageError):
            current = read_lease(location)
            if current is not None and current.owner == owner:
                location.delete(LEASE_NAME)


def _acquire(
    location: RemoteIndex,
    owner: str,
    *,
    wait: bool,
    notify: Callable[[str], None] | None,
    seconds: float,
    settle: float,
) -> None:
    told = False
    while True:
        current = read_lease(location)
        if current is None or current.expires <= time.time() or _holder_died_here(current):
            _write_lease(location, owner, seconds)
            time.sleep(settle)
            current = read_lease(location)
            if current is not None and current.owner == owner:
                return
        if current is not None:  # another run's lease (held, or it won the race)
            if not wait:
                raise IndexBusyError(busy_message(location, current))
            if notify and not told:
                notify(f"waiting for another ctxopt index ({current.holder()}) on {location}")
                told = True
        time.sleep(POLL_SECONDS)


def _holder_died_here(lease: Lease) -> bool:
    """The lease was taken on this machine by a process that no longer runs (a run killed
    with SIGKILL): it is not waited for until it expires."""
    if lease.host != socket.gethostname() or lease.pid <= 0:
        return False
    try:
        os.kill(lease.pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs, as another user
        return False
    return False


def _renew(location: RemoteIndex, owner: str, seconds: float, stop: threading.Event) -> None:
    """Extend the lease every third of its length until stopped (a failed renewal is tried
    again at the next tick; the lease lasts long enough for two misses)."""
    while not stop.wait(seconds / 3):
        with contextlib.suppress(StorageError):
            _write_lease(location, owner, seconds)
