"""Thin wrappers over the git command line."""

from __future__ import annotations

import subprocess
from pathlib import Path


class BenchError(Exception):
    """An expected failure of the benchmark; shown as one line, no traceback."""


def git_bytes(repo: Path, *args: str, check: bool = True) -> bytes:
    """Stdout of `git -C repo args...` as bytes; BenchError on failure when check is set."""
    cmd = ["git", "-C", str(repo), "-c", "core.quotePath=false", *args]
    done = subprocess.run(cmd, capture_output=True, check=False)
    if check and done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit code {done.returncode}"
        raise BenchError(f"git {' '.join(args[:3])} failed in {repo}: {detail}")
    return done.stdout


def git(repo: Path, *args: str, check: bool = True) -> str:
    """Stdout of `git -C repo args...` decoded as UTF-8 (invalid bytes replaced)."""
    return git_bytes(repo, *args, check=check).decode("utf-8", "replace")


def git_ok(repo: Path, *args: str) -> bool:
    """True when `git -C repo args...` exits with 0."""
    cmd = ["git", "-C", str(repo), *args]
    return subprocess.run(cmd, capture_output=True, check=False).returncode == 0


def resolve(repo: Path, rev: str) -> str:
    """The full commit sha of rev in repo; BenchError naming rev when there is none."""
    sha = git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False).strip()
    if not sha:
        raise BenchError(f"no commit {rev!r} in {repo}; pass an existing revision")
    return sha
