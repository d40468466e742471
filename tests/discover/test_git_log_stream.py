"""last_commit_times reads git's log as it streams: it stops at the paths' newest commits
without waiting for git to walk (or print) the rest of the history."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ctxopt.discover import git as gitmeta

SLOW_LOG = """#!{python}
import os, sys, time
if "log" not in sys.argv:
    os.execv({git!r}, [{git!r}, *sys.argv[1:]])
sys.stdout.buffer.write(b"\\x011700000000\\0\\na.py\\0")
sys.stdout.buffer.flush()
time.sleep(30)  # a long history still being walked
"""


@pytest.fixture
def slow_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository, and a `git` first on PATH whose log prints a.py's commit, then hangs."""
    real = shutil.which("git")
    assert real is not None
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    (repo / "a.py").write_text("x = 1\n")
    for args in (["init", "-q"], ["add", "a.py"], ["commit", "-qm", "one"]):
        subprocess.run([real, *args], cwd=repo, env=env, check=True)
    shim = tmp_path / "bin"
    shim.mkdir()
    script = shim / "git"
    script.write_text(SLOW_LOG.format(python=sys.executable, git=real))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    return repo


def test_newest_commit_found_without_waiting_for_the_rest_of_the_log(slow_git: Path) -> None:
    started = time.monotonic()
    assert gitmeta.last_commit_times(slow_git, ["a.py"]) == {"a.py": 1_700_000_000}
    assert time.monotonic() - started < 15  # the log hangs for 30 s after the first commit
