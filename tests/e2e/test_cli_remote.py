"""Repository URLs through the real CLI: a local bare repository served as file:// and as a
plain path, --ref with a tag and a commit, a second run after a push, and failures that are
one line with no credentials and nothing on stdout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clitools import CliRunner, Run, assert_one_line_error
from helpers import bare_remote, git, push_to

pytestmark = pytest.mark.slow

FILES = {
    "inventory/stock.py": "def count_stock_items(shelf):\n    return len(shelf)\n",
    "README.md": "# stock\n\nCounts items on shelves.\n",
}


@pytest.fixture
def served(tmp_path: Path) -> tuple[Path, Path]:
    return bare_remote(tmp_path / "served", FILES)


@pytest.fixture
def cache_env(tmp_path: Path) -> dict[str, str]:
    return {"CTXOPT_REPOS_DIR": str(tmp_path / "clones")}


def names(run: Run) -> set[str]:
    assert run.code == 0, run.err
    return {str(hit["name"]) for hit in run.json()}  # type: ignore[union-attr]


def test_index_then_query_and_pack_a_file_url(
    served: tuple[Path, Path], cache_env: dict[str, str], cli: CliRunner, tmp_path: Path
) -> None:
    work, bare = served
    url = bare.as_uri()
    indexed = cli("index", url, env=cache_env)
    assert indexed.code == 0, indexed.err
    assert indexed.out == ""
    clone = tmp_path / "clones"
    [root] = [p for p in clone.glob("*/remote") if p.is_dir()]
    assert f"cloned {url} at " in indexed.err and str(root) in indexed.err
    assert (root / ".ctxopt" / "committed.json").is_file()  # the index lives in the clone
    query = cli("query", "count stock items", "--path", url, "--json", env=cache_env)
    assert "count_stock_items" in names(query)
    assert "fetched" in query.err

    newer = push_to(work, {"inventory/orders.py": "def place_order_quickly(o):\n    return o\n"})
    pack = cli("pack", "place order quickly", "--path", url, "--budget", "2000", env=cache_env)
    assert pack.code == 0, pack.err
    assert "def place_order_quickly" in pack.out
    assert f"at {newer[:12]}" in pack.err
    assert "updated the index of" in pack.err  # the same clone, re-indexed incrementally
    # a depth-1 clone: the fetched commit is every file's last one now, so the rest re-date
    assert re.search(r"1 added, \d+ changed, 0 deleted", pack.err), pack.err
    assert [p for p in clone.glob("*/remote")] == [root]


def test_ref_with_a_tag_and_a_commit_on_a_plain_bare_path(
    served: tuple[Path, Path], cache_env: dict[str, str], cli: CliRunner
) -> None:
    work, bare = served
    tagged = git(work, "rev-parse", "v1").strip()
    push_to(work, {"inventory/returns.py": "def refund_returned_item(i):\n    return -i\n"})
    at_tag = cli(
        "query", "refund returned item", "--path", str(bare), "--ref", "v1", "--json", env=cache_env
    )
    assert "refund_returned_item" not in names(at_tag)  # the first pack of a URL indexes it
    assert "(its first run)" in at_tag.err
    at_main = cli(
        "query",
        "refund returned item",
        "--path",
        str(bare),
        "--ref",
        "main",
        "--json",
        env=cache_env,
    )
    assert "refund_returned_item" in names(at_main)
    at_commit = cli("stats", "--path", str(bare), "--ref", tagged, "--json", env=cache_env)
    assert at_commit.code == 0, at_commit.err
    assert f"at {tagged[:12]}" in at_commit.err
    assert at_commit.json()["files"] == 2  # type: ignore[index]


def test_commands_run_inside_a_bare_repository_read_it_as_given(
    served: tuple[Path, Path], cache_env: dict[str, str], cli: CliRunner
) -> None:
    """No folder named: inside a bare repository that is the repository (cloned, as `.`
    is), never a folder of git's hooks and objects to walk."""
    _, bare = served
    indexed = cli("index", cwd=bare, env=cache_env)
    assert indexed.code == 0, indexed.err
    assert not (bare / ".ctxopt").exists()
    found = cli("query", "count stock items", "--json", cwd=bare, env=cache_env)
    assert names(found) >= {"count_stock_items"}
    files = {str(hit["file"]) for hit in found.json()}  # type: ignore[union-attr]
    assert files <= set(FILES), files  # no hooks/*.sample, config or HEAD
    inside = cli("query", "count stock items", "--json", cwd=bare / "refs", env=cache_env)
    assert names(inside) >= {"count_stock_items"}  # a folder of the bare repository: the same
    assert not (bare / "refs" / ".ctxopt").exists()


def test_unreachable_urls_are_one_line_without_credentials(
    cache_env: dict[str, str], cli: CliRunner, tmp_path: Path
) -> None:
    missing = cli("index", (tmp_path / "gone.git").as_uri(), env=cache_env)
    assert_one_line_error(missing)
    assert missing.out == ""
    assert "cannot fetch file://" in missing.err
    secret = cli("pack", "task", "--path", "https://bob:hunter2@127.0.0.1:9/r.git", env=cache_env)
    assert_one_line_error(secret)
    assert secret.out == ""
    assert "hunter2" not in secret.err and "bob" not in secret.err
    assert "https://***@127.0.0.1:9/r.git" in secret.err


def test_bad_locations_and_refs_are_usage_errors(
    served: tuple[Path, Path], cache_env: dict[str, str], cli: CliRunner, tmp_path: Path
) -> None:
    _work, bare = served
    for args in (
        ("query", "x", "--path", "s3://bucket/repo"),
        ("query", "x", "--path", str(tmp_path), "--ref", "main"),
        ("index", str(bare), "--ref", "--upload-pack=touch pwned"),
        ("index", bare.as_uri(), "--watch"),
    ):
        done = cli(*args, env=cache_env)
        assert_one_line_error(done)
        assert done.code == 2, (args, done.err)
    unknown = cli("index", str(bare), "--ref", "no-such-branch", env=cache_env)
    assert_one_line_error(unknown)
    assert "has no branch, tag or commit 'no-such-branch'" in unknown.err


def test_a_command_on_a_url_waits_while_another_uses_its_clone(
    served: tuple[Path, Path], cache_env: dict[str, str], tmp_path: Path
) -> None:
    """Two commands on one URL with other refs must not check out a commit under each other
    (each would answer from the other's ref): the second waits, says so, then answers."""
    from ctxopt.discover.clone import clone_in_use
    from ctxopt.discover.remote import remote_repo

    _work, bare = served
    url = bare.as_uri()
    remote = remote_repo(url)
    assert remote is not None
    env = {**os.environ, "NO_COLOR": "1", **cache_env}
    command = [sys.executable, "-m", "ctxopt.cli", "query", "count stock", "--path", url, "--json"]
    with clone_in_use(remote, cache=tmp_path / "clones"):
        waiting = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert waiting.stderr is not None
        first = waiting.stderr.readline().decode()  # blocks until the command says it waits
        assert first.startswith(f"waiting for another ctxopt command on {url}"), first
        time.sleep(0.5)
        assert waiting.poll() is None  # still waiting while the clone is in use
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, err.decode()
    assert "count_stock_items" in out.decode()
