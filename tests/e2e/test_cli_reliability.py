"""Ctrl-C, a second run, damage and odd files, through the real CLI."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error
from ctxopt.index.lock import index_lock
from helpers import commit_all, init_repo, write_files

pytestmark = pytest.mark.slow


def many_files(root: Path, count: int = 200) -> Path:
    repo = init_repo(root / "many")
    body = "def step_{i}(x):\n    return x + {i}\n\n\nclass Part{i}:\n    size = {i}\n"
    write_files(repo, {f"src/part_{i}.py": body.format(i=i) for i in range(count)})
    commit_all(repo)
    return repo


def indexed_many(tmp_path: Path, cli: CliRunner) -> Path:
    repo = many_files(tmp_path, 5)
    assert cli("index", str(repo), "--quiet").code == 0
    return repo


def spoil(target: Path, damage: str, *, keep: int) -> None:
    """Remove target (a `missing_...` damage: a file or a folder) or cut it to keep bytes."""
    if not damage.startswith("missing"):
        os.truncate(target, keep)
    elif target.is_dir():
        shutil.rmtree(target)
    else:
        target.unlink()


def test_ctrl_c_exits_130_with_the_index_state(tmp_path: Path, cli: CliRunner) -> None:
    repo = many_files(tmp_path, 3000)  # about 1.5 s of work after the lock: Ctrl-C lands in it
    run = subprocess.Popen(
        [sys.executable, "-m", "ctxopt.cli", "index", str(repo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        start_new_session=True,
    )
    lock = repo / ".ctxopt" / "index.lock"
    while not lock.exists() and run.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("ctxopt: error: interrupted: ")
    assert lines[0].endswith(("no index was written", "run `ctxopt index` to finish it"))
    assert out == ""
    query = cli("query", "step", "--path", str(repo))
    assert_one_line_error(query)
    assert "run `ctxopt index`" in query.err
    assert cli("index", str(repo), "--quiet").code == 0
    assert cli("query", "step", "--path", str(repo)).code == 0


def test_a_second_run_is_refused_or_waits(tmp_path: Path, cli: CliRunner) -> None:
    repo = many_files(tmp_path, 5)
    assert cli("index", str(repo), "--quiet").code == 0
    db = repo / ".ctxopt"
    write_files(repo, {"src/late.py": "def late_step():\n    return 1\n"})
    with index_lock(db):
        busy = cli("index", str(repo))
        assert_one_line_error(busy)
        assert busy.code == 1
        assert f"another ctxopt index is running on {db} (pid {os.getpid()})" in busy.err
        assert busy.err.rstrip().endswith("wait for it or pass --wait")
        query = cli("query", "late step", "--path", str(repo))  # its refresh must not wait
        assert query.code == 0, query.err
        assert "not re-indexed: another `ctxopt index` is running" in query.err
        assert "drop --no-refresh" not in query.err  # a flag the user never passed

    with index_lock(db):
        waiting = subprocess.Popen(
            [sys.executable, "-m", "ctxopt.cli", "index", str(repo), "--wait"],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
        )
        assert waiting.stderr is not None
        first = waiting.stderr.readline()  # blocks until the run says it waits
        assert first.startswith(f"waiting for another ctxopt index (pid {os.getpid()})"), first
        assert waiting.poll() is None  # still waiting while the lock is held
    rest = waiting.stderr.read()
    assert waiting.wait(timeout=300) == 0, rest
    assert "Traceback" not in rest


def test_a_first_index_under_way_is_named_not_called_missing(
    tmp_path: Path, cli: CliRunner
) -> None:
    """While a first `ctxopt index` runs (here: this test holds the lock), query and pack say
    the index is being built, not that there is none or that a run was interrupted."""
    repo = many_files(tmp_path, 5)
    db = repo / ".ctxopt"
    db.mkdir()
    with index_lock(db):  # the lock file names this process; the CLI runs in another
        for command in (["query", "step"], ["pack", "step"]):
            result = cli(*command, "--path", str(repo))
            assert_one_line_error(result)
            assert f"is being built by another ctxopt index (pid {os.getpid()})" in result.err
    missing = cli("query", "step", "--path", str(repo))  # the run is over: none was written
    assert_one_line_error(missing)
    assert "no ctxopt index at" in missing.err


@pytest.mark.parametrize("damage", ["missing_table", "truncated_data"])
def test_a_damaged_index_names_full_which_repairs_it(
    tmp_path: Path, cli: CliRunner, damage: str
) -> None:
    repo = indexed_many(tmp_path, cli)
    db = repo / ".ctxopt"
    table, data = db / "chunks.lance", next((db / "files.lance" / "data").iterdir())
    spoil(table if damage == "missing_table" else data, damage, keep=10)
    for command in (["query", "step"], ["pack", "step"], ["stats"]):
        result = cli(*command, "--path", str(repo))
        assert_one_line_error(result)
        assert "damaged" in result.err and "`ctxopt index --full`" in result.err
    assert_one_line_error(cli("index", str(repo)))
    rebuilt = cli("index", str(repo), "--full", "--quiet")
    assert (rebuilt.code, rebuilt.err) == (0, "")  # no Lance log lines (`WARN lance::...`)
    result = cli("query", "step", "--path", str(repo), "--json")
    assert result.code == 0, result.err


@pytest.mark.parametrize("damage", ["missing_index_file", "truncated_index_file"])
def test_a_damaged_full_text_index_is_named_and_a_plain_index_rebuilds_it(
    tmp_path: Path, cli: CliRunner, damage: str
) -> None:
    repo = indexed_many(tmp_path, cli)
    (segment,) = (repo / ".ctxopt" / "chunks.lance" / "_indices").iterdir()
    spoil(max(segment.iterdir(), key=lambda f: f.stat().st_size), damage, keep=50)
    for command in (["query", "step"], ["pack", "step"]):
        result = cli(*command, "--path", str(repo))
        assert_one_line_error(result)
        assert "full-text index is missing or truncated" in result.err
        assert "`ctxopt index` rebuilds it" in result.err
    repaired = cli("index", str(repo))
    assert repaired.code == 0, repaired.err
    assert "full-text index was missing or truncated: rebuilt it" in repaired.err
    result = cli("query", "step_3 part_3", "--path", str(repo), "--json", "-k", "3")
    assert result.code == 0, result.err
    found = result.json()
    assert isinstance(found, list) and found[0]["file"] == "src/part_3.py"
    assert any("full-text" in reason for reason in found[0]["reasons"])
    again = cli("index", str(repo))
    assert again.code == 0 and "rebuilt" not in again.err


def test_odd_encodings_and_files_do_not_stop_a_run(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "odd")
    (repo / "units.py").write_bytes(
        "# -*- coding: latin-1 -*-\ndef größe(name):\n    return name\n".encode("latin-1")
    )
    (repo / "wide.py").write_bytes("def breite():\n    return 'ü'\n".encode("utf-16"))
    (repo / "notes.txt").write_bytes(b"caf\xe9 na\xefve \x93quoted\x94\n")
    (repo / "bom.py").write_bytes(b"\xef\xbb\xbfdef mit_bom():\n    return 1\n")
    commit_all(repo)
    os.mkfifo(repo / "pipe.py")
    (repo / "dangling.py").symlink_to(repo / "nowhere.py")
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    found = cli("query", "größe", "--path", str(repo), "--json")
    assert found.code == 0, found.err
    assert "größe" in {hit["name"] for hit in found.json()}  # type: ignore[attr-defined]
    wide = cli("query", "breite", "--path", str(repo), "--json")
    assert "breite" in {hit["name"] for hit in wide.json()}  # type: ignore[attr-defined]
