"""A git repository whose recent fixes teach `ctxopt tune` what the defaults miss."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from helpers import git, init_repo, write_files

WORDS = "record parser quoted field delimiter escape"
DAY = 86400
BASE = 1_700_000_000  # November 2023
TAILS = ("field", "delimiter", "escape", "field again")  # no digit: the files hold numbers


def _module(name: str, mentions: int) -> str:
    """A module whose functions use the task words `mentions` times each."""
    body = []
    for i in range(4):
        text = " ".join([WORDS] * mentions)
        body.append(
            f"def {name}_step_{i}(value):\n"
            f'    """Step {i} of {name}: {text}."""\n'
            + "".join(f"    value = value + {j}  # arithmetic {i} {j}\n" for j in range(12))
            + "    return value\n"
        )
    return "\n\n".join(body)


def commit_at(repo: Path, message: str, when: int) -> None:
    stamp = f"@{when} +0000"
    git(repo, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True, env=env)


def history_repo(tmp: Path, fixes: int = 36) -> Path:
    """Cold modules full of the task's words, untouched for two years; hot modules that
    barely use them but are the ones every recent fix changes: recency is the signal the
    defaults underweight.  The index keeps no past messages (history_commits = 0): the fixes'
    messages point at the hot modules as well, and the fit could learn those instead."""
    repo = init_repo(tmp / "repo")
    files = {"ctxopt.toml": "history_commits = 0\n"}
    files |= {f"pkg/cold_{i:02d}.py": _module(f"cold_{i:02d}", 3) for i in range(30)}
    files |= {f"pkg/hot_{i:02d}.py": _module(f"hot_{i:02d}", 1) for i in range(8)}
    write_files(repo, files)
    commit_at(repo, "Add the parsing package with its modules", BASE - 800 * DAY)
    for n in range(fixes):
        target = repo / f"pkg/hot_{n % 8:02d}.py"
        target.write_text(target.read_text() + f"\n# revision {n}\n")
        commit_at(repo, f"Fix the record parser on a quoted {TAILS[n % 4]}", BASE + n * DAY)
    return repo
