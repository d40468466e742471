"""Recent commits of a repository: their messages and the files they modified."""

from __future__ import annotations

import os
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
