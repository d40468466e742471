"""Recent commits of a repository: their messages and the files they modified."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ctxopt.discover.git import run_git, work_tree_prefix
from ctxopt.types import PastCommit


def recent_commits(root: Path, head: str = "HEAD", limit: int = 300) -> list[PastCommit]:
    """Up to `limit` non-merge commits reachable from head, newest first, with the files
    under root each modified (added, deleted and renamed files are not listed).  [] when
    git fails or root is not in a work tree."""
    prefix = work_tree_prefix(root)
    if prefix is None:
        return []
    try:
        done = run_git(
            root,
            "log",
            "--no-merges",
            "-z",
            "--name-only",
            "--no-renames",
            "--diff-filter=M",
            "--format=%x01%H%x02%B%x03",
            f"-n{limit}",
            head,
            "--",
        )
    except OSError:
        return []
    if done.returncode != 0:
        return []
    return parse_log(done.stdout, prefix)


def parse_log(out: bytes, prefix: str = "") -> list[PastCommit]:
    """Commits from `git log -z --name-only --format=%x01%H%x02%B%x03` output."""
    commits: list[PastCommit] = []
    for record in out.split(b"\x01")[1:]:
        head, _, names = record.partition(b"\x03")
        sha, _, message = head.partition(b"\x02")
        paths = []
        for name in names.split(b"\0"):
            path = os.fsdecode(name.strip(b"\n"))
            if path and path.startswith(prefix):
                paths.append(path[len(prefix) :])
        text = message.decode("utf-8", "replace").strip()
        commits.append(PastCommit(sha.decode().strip(), text, tuple(sorted(set(paths)))))
    return commits


MIN_ADDED_LINE = 10  # shorter added lines ("}", "return x") are found all over a file


def added_lines(root: Path, sha: str, paths: Sequence[str]) -> frozenset[str]:
    """The lines (stripped, of MIN_ADDED_LINE characters or more) commit sha added to paths
    (relative to root); empty when git fails."""
    if not paths:
        return frozenset()
    try:
        done = run_git(root, "show", "-U0", "--format=", "--no-renames", sha, "--", *paths)
    except OSError:
        return frozenset()
    if done.returncode != 0:
        return frozenset()
    found: set[str] = set()
    in_hunk = False  # a file's header ("+++ b/path") comes before its first "@@"
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("diff "):
            in_hunk = False
        elif line.startswith("@@"):
            in_hunk = True
        elif in_hunk and line.startswith("+"):
            text = line[1:].strip()
            if len(text) >= MIN_ADDED_LINE:
                found.add(text)
    return frozenset(found)
