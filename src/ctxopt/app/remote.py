"""A command's repository when --path (or `index`'s folder) is a URL: the clone to work in,
kept at --ref, and its index built on first use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ctxopt.app.held import hold
from ctxopt.config.environment import clone_cache
from ctxopt.config.settings import Settings
from ctxopt.discover.remote import ACCEPTED, RemoteRepo, remote_repo
from ctxopt.errors import UsageError
from ctxopt.index.commit import IndexState, index_state
from ctxopt.types import IndexStats

Notify = Callable[[str], None]


@dataclass(frozen=True)
class Repository:
    """The folder a command works on: a local one (None: found from the current folder) or
    the clone of a remote repository."""

    folder: Path | None
    remote: RemoteRepo | None = None


def open_repository(
    location: str | None, ref: str | None, *, notify: Notify | None = None
) -> Repository:
    """The repository location names.  A URL is cloned into the cache (or its clone fetched)
    and checked out at ref; a local folder is taken as it is, and ref is then a usage error."""
    remote = remote_repo(location) if location else None
    if remote is None:
        if ref is not None:
            raise UsageError(f"--ref needs a repository URL as the path ({ACCEPTED})")
        return Repository(Path(location).expanduser() if location else None)
    from ctxopt.discover.clone import checkout_remote, clone_in_use  # only a URL needs them

    cache = clone_cache()
    hold(clone_in_use(remote, cache=cache, notify=notify))  # until the command ends
    checkout = checkout_remote(remote, ref, cache=cache)
    if notify:
        done = "cloned" if checkout.cloned else "fetched"
        what = f"{remote.shown} ({ref})" if ref else remote.shown
        notify(f"{done} {what} at {checkout.commit[:12]} into {checkout.root}")
    return Repository(checkout.root, remote)


def update_clone_index(settings: Settings, *, notify: Notify | None = None) -> IndexStats:
    """Bring the index of a clone up to date with the commit just checked out (built on the
    first run, incremental after), so `query`, `pack` and `stats` on a URL answer for the
    requested ref, `stats` included, which never refreshes on its own."""
    from ctxopt.index.build import build_index

    fresh = index_state(settings.db_path) is IndexState.MISSING
    if notify and fresh:
        notify(f"indexing {settings.root} (its first run)")
    stats = build_index(settings, wait=True)
    if notify and not fresh and (stats.added or stats.changed or stats.deleted):
        notify(
            f"updated the index of {settings.root}: {stats.added} added, {stats.changed} "
            f"changed, {stats.deleted} deleted"
        )
    return stats
