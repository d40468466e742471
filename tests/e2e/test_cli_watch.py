"""`ctxopt index --watch` as a real subprocess: files changed, added and deleted under it are
indexed; ignored files are not; SIGINT ends it with exit 130 and one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from clitools import CliRunner
from helpers import commit_all, init_repo, write_files

pytestmark = pytest.mark.slow

TIMEOUT = 240.0  # seconds any one wait may take on a loaded machine


@dataclass
class Watcher:
    process: subprocess.Popen[bytes]
    out: Path
    err: Path

    def lines(self) -> list[str]:
        text = self.err.read_text(encoding="utf-8", errors="replace")
        return [line for line in text.splitlines() if line.strip()]

    def updates(self) -> list[str]:
        return [line for line in self.lines() if " index updated: " in line]

    def interrupt(self) -> int:
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=TIMEOUT)


def wait_for(condition: Callable[[], bool], what: str, watcher: Watcher) -> None:
    """Poll condition until it holds; fail naming what and the watcher's stderr."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if watcher.process.poll() is not None:
            pytest.fail(f"the watcher ended ({watcher.process.returncode}): {watcher.lines()}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}: {watcher.lines()}")
        time.sleep(0.1)


def counts(line: str) -> tuple[int, int, int]:
    """(added, changed, deleted) of an `index updated:` line."""
    words = line.split(" index updated: ", 1)[1].replace(",", "").split()
    return int(words[0]), int(words[2]), int(words[4])


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    write_files(
        repo,
        {
            "src/first.py": "def alpha_original_step(x):\n    return x + 1\n",
            "src/second.py": "def beta_doomed_helper(y):\n    return y * 2\n",
            ".gitignore": "*.log\n",
        },
    )
    commit_all(repo)
    return repo


@pytest.fixture
def watcher(repo: Path, tmp_path: Path) -> Iterator[Watcher]:
    logs = tmp_path / "logs"  # outside the watched tree
    logs.mkdir()
    out, err = logs / "out.txt", logs / "err.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "ctxopt.cli", "index", str(repo), "--watch"],
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, "NO_COLOR": "1"},
        )
    running = Watcher(process, out, err)
    try:
        wait_for(lambda: any("watching " in line for line in running.lines()), "start", running)
        yield running
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def hit_names(cli: CliRunner, repo: Path, text: str) -> set[str]:
    done = cli("query", text, "--path", str(repo), "--no-refresh", "--json", "-k", "20")
    assert done.code == 0, done.err
    assert "stale" not in done.err  # the watcher, not a refresh, brought the index up to date
    return {str(hit["name"]) for hit in done.json()}  # type: ignore[union-attr]


def test_changes_under_a_running_watcher_are_indexed(
    repo: Path, watcher: Watcher, cli: CliRunner
) -> None:
    write_files(repo, {"src/first.py": "def alpha_renamed_step(x):\n    return x + 2\n"})
    write_files(repo, {"src/third.py": "def gamma_fresh_helper(z):\n    return z - 3\n"})
    (repo / "src" / "second.py").unlink()
    write_files(repo, {"build.log": "def delta_ignored_helper():\n    pass\n"})

    def all_seen() -> bool:
        totals = [sum(column) for column in zip(*map(counts, watcher.updates()), strict=True)]
        return len(totals) == 3 and totals[0] >= 1 and totals[1] >= 1 and totals[2] >= 1

    wait_for(all_seen, "the add, the change and the delete", watcher)
    names = hit_names(cli, repo, "alpha renamed gamma fresh beta doomed delta ignored helper")
    assert {"alpha_renamed_step", "gamma_fresh_helper"} <= names
    assert not names & {"alpha_original_step", "beta_doomed_helper", "delta_ignored_helper"}

    # a commit (writes under .git/) and an ignored file are no update; the next change is one
    before = len(watcher.updates())
    commit_all(repo, "second")
    write_files(repo, {"other.log": "noise\n"})
    write_files(repo, {"src/fourth.py": "def epsilon_late_helper():\n    return 4\n"})
    wait_for(lambda: len(watcher.updates()) > before, "the fourth file", watcher)
    # fourth.py added; third.py re-read (committed since: it had no commit time), and
    # first.py too unless its two commits fell within one second
    assert [counts(line) for line in watcher.updates()[before:]] in ([(1, 1, 0)], [(1, 2, 0)])

    assert watcher.interrupt() == 130
    assert watcher.out.read_text(encoding="utf-8") == ""  # stdout carries no progress
    last = watcher.lines()[-1]
    assert (
        last
        == f"ctxopt: error: interrupted: stopped watching; the index at {repo}/.ctxopt is complete"
    )
    assert "Traceback" not in watcher.err.read_text(encoding="utf-8")
    assert "epsilon_late_helper" in hit_names(cli, repo, "epsilon late helper")


def test_sigint_during_an_update_leaves_a_usable_index(
    repo: Path, watcher: Watcher, cli: CliRunner
) -> None:
    lock = repo / ".ctxopt" / "index.lock"
    taken = lock.stat().st_mtime_ns
    write_files(
        repo, {f"src/many_{i}.py": f"def many_{i}(v):\n    return v + {i}\n" for i in range(150)}
    )
    wait_for(lambda: lock.stat().st_mtime_ns != taken, "the update to take the lock", watcher)
    code = watcher.interrupt()
    assert code == 130
    errors = [line for line in watcher.lines() if line.startswith("ctxopt: error:")]
    assert len(errors) == 1 and errors == watcher.lines()[-1:]
    assert errors[0].startswith("ctxopt: error: interrupted: stopped watching")
    assert "Traceback" not in watcher.err.read_text(encoding="utf-8")
    query = cli("query", "many", "--path", str(repo), "--no-refresh")
    assert query.code == 0 or "run `ctxopt index`" in query.err
    assert cli("index", str(repo), "--quiet").code == 0
    assert "many_149" in hit_names(cli, repo, "many_149")
