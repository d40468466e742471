"""What git knows about a folder: its work tree, listed files, HEAD and commit times.

`run_git` is ctxopt's one way to run git.  The helpers here degrade to "no git"
(None, "", {}) when git is missing or the folder is not inside a work tree.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import IO

from ctxopt.config.environment import GIT, child_environment

MAX_COMMITS = 20_000
PATHSPEC_LIMIT = 200  # up to this many paths are passed to `git log` as pathspecs
_READ_SIZE = 1 << 16


def run_git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """`git <args>` run in root, its output as bytes; OSError when git cannot be started."""
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, check=False, env=_git_env()
    )


_ANSWERS: ContextVar[dict[tuple[str, ...], bytes | None] | None] = ContextVar(
    "git_answers", default=None
)


@contextlib.contextmanager
def one_view() -> Iterator[None]:
    """Within: each question to git (same folder, same arguments) is asked once, so the
    steps of one run (the freshness check, discovery, the plan) share one view of the
    repository and its cost.  Outside, every call asks git anew."""
    token = _ANSWERS.set({})
    try:
        yield
    finally:
        _ANSWERS.reset(token)


def _git(root: Path, *args: str) -> bytes | None:
    """Stdout of `git <args>` run in root, or None when it fails."""
    answers = _ANSWERS.get()
    key = (str(root), *args)
    if answers is not None and key in answers:
        return answers[key]
    try:
        done = run_git(root, *args)
    except OSError:
        return None
    out = done.stdout if done.returncode == 0 else None
    if answers is not None:
        answers[key] = out
    return out


def _git_env() -> dict[str, str]:
    return child_environment(GIT)


def git_root(path: Path) -> Path | None:
    """The top folder of the git work tree holding path, or None outside git."""
    out = _git(path, "rev-parse", "--show-toplevel")
    if not out:
        return None
    return Path(os.fsdecode(out.rstrip(b"\n")))


def ignores(folder: Path) -> bool:
    """Whether the git work tree holding folder ignores it (a rule in its ignore files, or
    a folder above it ignored), as `git check-ignore` answers; False outside git, for a
    folder holding tracked files, and when git fails."""
    return _git(folder, "check-ignore", "-q", "--", ".") is not None


def work_tree(folder: Path) -> Path | None:
    """The top of the git work tree folder (absolute, resolved) is part of; None outside git,
    and when that work tree ignores folder (a project in a home directory kept as a dotfiles
    repository ignoring `*`): git lists nothing in it, so it is read as a plain folder."""
    top = git_root(folder)
    if top is None or top == folder or not ignores(folder):
        return top
    return None


def head_commit(root: Path) -> str:
    """The hash of HEAD, or "" when there is no git or no commit yet."""
    return commit_of(root, "HEAD")


def commit_of(root: Path, revision: str) -> str:
    """The hash of the commit revision names, or "" when there is none (or no git)."""
    wanted = f"{revision}^{{commit}}"
    out = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", wanted)
    return out.decode().strip() if out else ""


def is_shallow(root: Path) -> bool:
    """Whether root's repository is a shallow clone (`git clone --depth N`)."""
    out = _git(root, "rev-parse", "--is-shallow-repository")
    return out is not None and out.strip() == b"true"


def tracked(root: Path, paths: Sequence[str]) -> set[str]:
    """Those of paths (relative to root) that git tracks: the only ones a commit can date."""
    if not paths:
        return set()
    specs = list(paths) if len(paths) <= PATHSPEC_LIMIT else ["."]
    out = _git(root, "--literal-pathspecs", "ls-files", "-z", "--", *specs)
    listed = {os.fsdecode(p) for p in (out or b"").split(b"\0") if p}
    return listed & set(paths)


def shallow_note(root: Path) -> str:
    """A hint for a history too short because the clone is shallow (CI checkouts often are);
    "" for a full clone."""
    if not is_shallow(root):
        return ""
    return (
        " (this clone is shallow: fetch its history with `git fetch --unshallow`, or "
        "`fetch-depth: 0` in actions/checkout)"
    )


def files_touched_between(root: Path, older: str, newer: str) -> set[str] | None:
    """The paths (relative to root) that the commits on either side of older...newer touched
    (a commit, an amend, a rebase, a checkout back or forth): those whose last commit may have
    moved; None when git cannot compare them (an unknown or pruned commit)."""
    args = ("log", "-z", "--name-only", "--format=", "--no-renames", "--relative")
    out = _git(root, *args, f"{older}...{newer}", "--")
    if out is None:
        return None
    return {os.fsdecode(path) for path in out.split(b"\0") if path.strip()}


def commits_since(root: Path, older: str, newer: str = "HEAD") -> int | None:
    """How many commits newer has that older has not, or None when older is not an
    ancestor of newer (another branch, rewritten history, an unknown commit)."""
    if _git(root, "merge-base", "--is-ancestor", older, newer) is None:
        return None
    out = _git(root, "rev-list", "--count", f"{older}..{newer}")
    return int(out) if out and out.strip().isdigit() else None


def listed_files(root: Path, excluded_dirs: Sequence[str] = ()) -> list[str] | None:
    """Tracked plus untracked-not-ignored files under root, relative to root (POSIX).

    None when git fails.  Entries may include deleted-but-tracked files and
    nested repositories ("sub/"); the caller checks the disk.
    """
    excludes = [f":(exclude,literal){d}" for d in excluded_dirs]
    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".", *excludes]
    out = _git(root, *args)
    if out is None:
        return None
    names = dict.fromkeys(os.fsdecode(n) for n in out.split(b"\0") if n)
    return list(names)


def work_tree_prefix(root: Path) -> str | None:
    """root's path inside its git work tree ("" at the top, "src/" below it); None when
    git fails."""
    out = _git(root, "rev-parse", "--show-prefix")
    return None if out is None else os.fsdecode(out.rstrip(b"\n"))


def last_commit_times(root: Path, paths: Sequence[str]) -> dict[str, int]:
    """Unix seconds of the last commit touching each path (relative to root).

    One `git log` pass, newest first, stopped as soon as every path is found and
    capped at MAX_COMMITS commits.  Paths never committed are absent.
    """
    prefix = work_tree_prefix(root)
    if prefix is None or not paths or not head_commit(root):
        return {}
    wanted = {prefix + p: p for p in paths}
    specs = list(paths) if len(paths) <= PATHSPEC_LIMIT else ["."]  # relative to root
    args = ["git", "--literal-pathspecs", "log", "-z", "--name-only", "--no-renames"]
    args += ["--format=%x01%ct", f"-n{MAX_COMMITS}", "--", *specs]
    found: dict[str, int] = {}
    try:
        # Unbuffered: each read returns what git has written so far.  A buffered read waits
        # for a whole block, so finding one path's newest commit (the first few tokens) waited
        # for git to walk enough history to fill 64 KiB: 1.6 s instead of 0.05 s on sympy.
        proc = subprocess.Popen(
            args,
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_git_env(),
            bufsize=0,
        )
    except OSError:
        return {}
    try:
        _collect(_log_entries(proc), wanted, found)
    finally:
        proc.kill()
        proc.wait()
    return found


def _collect(
    entries: Iterator[tuple[int, str]], wanted: dict[str, str], found: dict[str, int]
) -> None:
    """Fill found with the first (newest) time of each wanted path; stop when all are in."""
    for when, name in entries:
        rel = wanted.get(name)
        if rel is not None and rel not in found:
            found[rel] = when
            if len(found) == len(wanted):
                return


def _log_entries(proc: subprocess.Popen[bytes]) -> Iterator[tuple[int, str]]:
    """(commit time, top-relative path) pairs from `git log -z --name-only --format=%x01%ct`."""
    assert proc.stdout is not None
    when = 0
    for token in _nul_tokens(proc.stdout):
        if token.startswith(b"\x01"):
            when = int(token[1:] or 0)
        elif token:
            yield when, os.fsdecode(token.removeprefix(b"\n"))


def _nul_tokens(stream: IO[bytes]) -> Iterator[bytes]:
    """NUL-separated tokens of a binary stream, read in blocks (as they arrive, on a raw
    stream)."""
    rest = b""
    while block := stream.read(_READ_SIZE):
        *tokens, rest = (rest + block).split(b"\0")
        yield from tokens
    if rest:
        yield rest
