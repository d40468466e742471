"""Shallow clones of remote repositories in a cache folder, kept at a requested ref (gitpython).

The first run for a URL makes `<cache>/<key>/<name>/` a work tree at the ref (a branch, tag
or commit; the remote's HEAD by default) with one commit of history (key: a hash of the URL
without credentials; name: the repository's).  A later run fetches that ref into the same
folder and checks it out, so the index inside (`<clone>/.ctxopt`) is refreshed
incrementally rather than rebuilt.  The URL is passed to each fetch and never stored in the
clone's configuration, so credentials in it stay out of the cache.

A first clone is built in a temporary folder and renamed into place, so an interrupted or
failed clone leaves nothing behind; runs on the same URL are serialised by a lock file.
Every failure is a `RemoteError` whose message is one line, credentials redacted.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ctxopt.config.environment import GIT_REMOTE, child_environment
from ctxopt.discover.remote import RemoteRepo, check_ref, redact
from ctxopt.errors import CtxoptError

try:
    import fcntl
except ImportError:  # Windows: runs on one URL are not serialised there
    fcntl = None  # type: ignore[assignment]

FETCH_TIMEOUT = 900.0  # seconds one git command may take before it is killed
_ABBREVIATED = re.compile(r"^[0-9a-fA-F]{4,39}$")


class RemoteError(CtxoptError):
    """A repository URL that cannot be cloned or fetched, or a ref it does not have."""

    kind = "remote"


@dataclass(frozen=True)
class Checkout:
    """A local work tree of a remote repository, at one commit."""

    root: Path
    commit: str
    cloned: bool  # True: cloned on this run; False: an existing clone was fetched


def checkout_remote(remote: RemoteRepo, ref: str | None, *, cache: Path) -> Checkout:
    """Clone remote into `cache/<key>/<name>` (or fetch into the clone already there) and
    check out ref."""
    if ref is not None:
        check_ref(ref)
    place = _place(remote, cache)
    folder = place / remote.name
    with _lock(place / ".lock"):
        if _is_clone(folder):
            return Checkout(folder, _fetch_and_check_out(folder, remote, ref), cloned=False)
        return Checkout(folder, _clone(folder, remote, ref), cloned=True)


@contextlib.contextmanager
def clone_in_use(
    remote: RemoteRepo, *, cache: Path, notify: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Keep the clone of remote for one command, from its checkout to its last read: another
    command on the same URL (with another --ref, say) waits, rather than check out another
    commit under it.  A command that must wait says so."""

    def waiting() -> None:
        if notify:
            notify(f"waiting for another ctxopt command on {remote.shown} to finish")

    with _lock(_place(remote, cache) / IN_USE, on_wait=waiting):
        yield


def _place(remote: RemoteRepo, cache: Path) -> Path:
    """The folder of remote's clone and its locks, made when missing."""
    place = cache / remote.key
    try:
        place.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RemoteError(f"cannot create the clone cache {place}: {exc.strerror}") from None
    return place


IN_USE = ".in-use.lock"


def _what(remote: RemoteRepo, ref: str | None) -> str:
    return f"{remote.shown} ({ref})" if ref else remote.shown


def _is_clone(folder: Path) -> bool:
    return (folder / ".git").is_dir()


def _clone(folder: Path, remote: RemoteRepo, ref: str | None) -> str:
    """A new clone, built beside its final place and renamed there once checked out."""
    shutil.rmtree(folder, ignore_errors=True)  # a folder that is not a clone (damaged)
    building = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        from git import Repo

        Repo.init(building)
        commit = _fetch_and_check_out(building, remote, ref)
        os.replace(building, folder)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return commit


def _fetch_and_check_out(folder: Path, remote: RemoteRepo, ref: str | None) -> str:
    """Fetch ref (one commit deep) and check it out detached; returns the commit's hash."""
    target = ref or "HEAD"
    status, err = _git(folder, "fetch", "--depth=1", "--no-tags", remote.url, target)
    if status != 0 and ref is not None and _ABBREVIATED.match(ref) and _reachable(err):
        return _check_out_abbreviated(folder, remote, ref)  # an abbreviated hash
    if status != 0:
        raise _fetch_error(remote, ref, err)
    status, err = _git(folder, "checkout", "--force", "--detach", "FETCH_HEAD")
    if status != 0:
        raise RemoteError(f"cannot check out {_what(remote, ref)}: {_reason(err)}")
    return _head(folder)


def _check_out_abbreviated(folder: Path, remote: RemoteRepo, ref: str) -> str:
    """A short hash cannot be fetched by name: fetch the branches and tags in full, then
    resolve it locally."""
    refspecs = ("+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")
    unshallow = ("--unshallow",) if (folder / ".git" / "shallow").exists() else ()
    status, err = _git(folder, "fetch", *unshallow, remote.url, *refspecs)
    if status != 0:
        raise _fetch_error(remote, ref, err)
    status, err = _git(folder, "checkout", "--force", "--detach", f"{ref}^{{commit}}")
    if status != 0:
        raise RemoteError(f"{remote.shown} has no branch, tag or commit {ref!r}")
    return _head(folder)


def _head(folder: Path) -> str:
    from git import Repo

    with Repo(folder) as repo:
        return repo.head.commit.hexsha


def _reachable(err: str) -> bool:
    """git reached the repository and only the ref was missing."""
    return "couldn't find remote ref" in err or "not our ref" in err


def _fetch_error(remote: RemoteRepo, ref: str | None, err: str) -> RemoteError:
    if _reachable(err):
        what = f"branch, tag or commit {ref!r}" if ref else "default branch"
        return RemoteError(f"{remote.shown} has no {what} (see --ref)")
    return RemoteError(f"cannot fetch {_what(remote, ref)}: {_reason(err)}")


def _reason(err: str) -> str:
    """git's first `fatal:` or `error:` line, credentials redacted; one line."""
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    chosen = next((line for line in lines if line.startswith(("fatal:", "error:"))), None)
    text = chosen or (lines[0] if lines else "git failed")
    text = re.sub(r"^(fatal|error):\s*", "", text)
    return redact(text)


def _git(folder: Path, *args: str) -> tuple[int, str]:
    """(exit status, stderr) of `git <args>` in folder, through gitpython; nothing reaches
    ctxopt's stdout or stderr."""
    from git import Git

    runner = Git(str(folder))
    try:
        status, _out, err = runner.execute(
            ["git", *args],
            with_extended_output=True,
            with_exceptions=False,
            kill_after_timeout=FETCH_TIMEOUT,
            env=child_environment(GIT_REMOTE),
        )
    except OSError as exc:
        raise RemoteError(f"cannot run git: {exc.strerror or exc}") from None
    return int(status or 0), str(err)


@contextlib.contextmanager
def _lock(path: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold an exclusive lock on path for the block (the kernel drops it if the process dies);
    on_wait is called once when another process holds it and this one waits."""
    if fcntl is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing it lets the lock go
