"""The CLI with its index on a real S3-compatible server (moto on 127.0.0.1): a CI checkout
builds and updates the index, a second checkout (a clone) queries and packs from it, and a
store that cannot be reached is one line.  The real default (static) embedder throughout."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from clitools import CliRunner, Run, assert_one_line_error, run_cli
from helpers import commit_all, git, run_in_fresh_python, sample_repo, write_files
from s3server import S3Server


@dataclass(frozen=True)
class Shared:
    """A repository whose index lives on the S3 server, and a clone of it."""

    repo: Path
    clone: Path
    db: str
    env: dict[str, str]

    def run(self, *args: str, where: Path | None = None) -> Run:
        return run_cli(*args, "--db", self.db, cwd=where or self.repo, env=self.env)


def top_names(result: Run) -> list[str]:
    assert result.code == 0, result.err
    data: Any = result.json()
    return [hit["name"] for hit in data]


@pytest.fixture(scope="module")
def shared(s3_server: S3Server, tmp_path_factory: pytest.TempPathFactory) -> Shared:
    """The sample repo indexed once into a new bucket (as a CI job would), and a clone."""
    home = tmp_path_factory.mktemp("s3-e2e")
    repo = sample_repo(home)
    clone = home / "clone"
    git(home, "clone", "-q", str(repo), str(clone))
    made = Shared(repo, clone, f"s3://{s3_server.bucket()}/acme/inventory", s3_server.env(home))
    result = made.run("index", "--json")
    assert result.code == 0, result.err
    stats: Any = result.json()
    assert stats["added"] == stats["files"] >= 10 and stats["db_path"] == made.db
    return made


def test_query_and_pack_read_the_index_on_object_storage(shared: Shared) -> None:
    assert "save_inventory" in top_names(shared.run("query", "save inventory to file", "--json"))
    pack = shared.run("pack", "save inventory to file", "--budget", "1500", "--json")
    assert pack.code == 0, pack.err
    data: Any = pack.json()
    assert "def save_inventory" in data["prompt"] and data["tokens"] <= 1500
    assert not (shared.repo / ".ctxopt").exists()  # nothing local: the index is remote


def test_stats_reads_the_shared_index_and_says_where_it_is(shared: Shared) -> None:
    result = shared.run("stats", where=shared.clone)
    assert result.code == 0, result.err
    assert f"index: {shared.db} (on object storage)" in result.out


def test_a_clone_queries_the_index_the_first_checkout_built(shared: Shared) -> None:
    first = top_names(shared.run("query", "load the inventory", "--json"))
    result = shared.run("query", "load the inventory", "--json", where=shared.clone)
    assert top_names(result) == first
    # other mtimes, same content: the refresh check compares hashes and finds nothing stale
    assert "changed since indexing" not in result.err
    assert not (shared.clone / ".ctxopt").exists()


def test_a_clone_with_local_edits_is_warned_and_never_writes_the_shared_index(
    shared: Shared, s3_env: dict[str, str]
) -> None:
    from ctxopt.index.commit import read_commit

    before = read_commit(shared.db)
    edited = shared.clone / "inventory" / "models.py"
    original = edited.read_text()
    edited.write_text(original + "\n\ndef local_only_helper():\n    return 1\n")
    try:
        result = shared.run("query", "local only helper", "--json", where=shared.clone)
    finally:
        edited.write_text(original)
    assert result.code == 0, result.err
    assert "1 file changed since indexing" in result.err
    assert f"run `ctxopt index --db {shared.db}` to update the shared index" in result.err
    assert read_commit(shared.db) == before


def test_an_agent_s_refresh_never_writes_the_shared_index(
    shared: Shared, s3_env: dict[str, str], tmp_path: Path
) -> None:
    """The MCP refresh tool, from a clone with a local edit, refuses rather than write the
    edit into every reader's index (a real MCP client over stdio)."""
    from ctxopt.index.commit import read_commit
    from mcpclient import call, mcp_session, run, text

    before = read_commit(shared.db)
    edited = shared.clone / "inventory" / "models.py"
    original = edited.read_text()
    edited.write_text(original + "\n\ndef local_only_helper():\n    return 1\n")

    async def conversation() -> tuple[object, object]:
        async with mcp_session(shared.clone, "--db", shared.db, errlog=tmp_path / "err") as s:
            refreshed = await call(s, "refresh", {})
            queried = await call(s, "query", {"task": "local only helper", "top": 3})
            return refreshed, queried

    try:
        refreshed, queried = run(conversation)
    finally:
        edited.write_text(original)
    assert refreshed.is_error  # type: ignore[attr-defined]
    message = text(refreshed)  # type: ignore[arg-type]
    assert f"the index at {shared.db} is shared" in message
    assert f"`ctxopt index --db {shared.db}` updates it" in message
    assert not queried.is_error  # type: ignore[attr-defined]
    assert read_commit(shared.db) == before


def test_ci_updates_incrementally_and_the_clone_sees_it_after_a_pull(shared: Shared) -> None:
    write_files(shared.repo, {"inventory/audit.py": "def audit_stock_levels(items):\n    ...\n"})
    commit_all(shared.repo, "audit")
    result = shared.run("index", "--json")
    assert result.code == 0, result.err
    stats: Any = result.json()
    assert (stats["added"], stats["changed"], stats["deleted"]) == (1, 0, 0)
    assert stats["embedded"] == 1  # only the new file's one chunk
    git(shared.clone, "pull", "-q", "--ff-only")
    query = shared.run("query", "audit stock levels", "--json", where=shared.clone)
    assert top_names(query)[0] == "audit_stock_levels"
    assert "changed since indexing" not in query.err


def test_query_and_pack_on_object_storage_never_import_lancedb_or_torch(shared: Shared) -> None:
    code = (
        "import os, sys\n"
        f"os.environ.update({shared.env!r})\n"
        f"os.chdir({str(shared.repo)!r})\n"
        "from ctxopt.cli import main\n"
        "for args in (['query', 'save inventory'], ['pack', 'save inventory', '-o', os.devnull]):\n"
        f"    sys.argv = ['ctxopt', *args, '--db', {shared.db!r}, '--quiet']\n"
        "    try:\n        main()\n    except SystemExit as exc:\n        assert not exc.code\n"
    )
    _, heavy = run_in_fresh_python(code)
    assert heavy == []


def test_readers_in_two_checkouts_query_while_ci_rebuilds(shared: Shared) -> None:
    expected = top_names(shared.run("query", "save inventory to file", "--json"))
    command = [sys.executable, "-m", "ctxopt.cli", "index", "--full", "--quiet", "--db", shared.db]
    env = {**os.environ, "NO_COLOR": "1", **shared.env}
    rebuild = subprocess.Popen(command, cwd=shared.repo, env=env, stderr=subprocess.PIPE, text=True)
    try:
        readers = [
            shared.run("query", "save inventory to file", "--json", where=where)
            for where in (shared.repo, shared.clone)
        ]
    finally:
        _, err = rebuild.communicate(timeout=600)
    assert rebuild.returncode == 0, err
    for result in readers:  # each read a complete index: the last commit, or the new one
        assert top_names(result) == expected


@pytest.mark.parametrize("case", ["bad endpoint", "missing bucket", "missing credentials"])
@pytest.mark.parametrize("command", ["index", "query"])
def test_a_store_that_cannot_be_reached_is_one_line(
    s3_server: S3Server, tmp_path: Path, cli: CliRunner, case: str, command: str
) -> None:
    env = s3_server.env(tmp_path)
    bucket = "no-such-bucket" if case == "missing bucket" else s3_server.bucket()
    if case == "bad endpoint":
        env["CTXOPT_STORAGE_ENDPOINT"] = "http://127.0.0.1:9"  # discard: nothing listens
    if case == "missing credentials":
        env = {
            k: v for k, v in env.items() if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")
        }
    args = ["index", "."] if command == "index" else ["query", "save inventory"]
    result = run_cli(
        *args, "--db", f"s3://{bucket}/app", cwd=sample_repo(tmp_path), env=_without_aws(env)
    )
    assert_one_line_error(result)
    expected = {
        "bad endpoint": "cannot connect to the storage endpoint at http://127.0.0.1:9",
        "missing bucket": "the bucket 'no-such-bucket' does not exist",
        "missing credentials": "no credentials found; set AWS_ACCESS_KEY_ID",
    }[case]
    assert f"cannot reach the index at s3://{bucket}/app: {expected}" in result.err


def test_an_empty_prefix_names_the_command_that_builds_it(
    s3_server: S3Server, tmp_path: Path
) -> None:
    db = f"s3://{s3_server.bucket()}/app"
    result = run_cli(
        "query", "x", "--db", db, cwd=sample_repo(tmp_path), env=s3_server.env(tmp_path)
    )
    assert_one_line_error(result)
    assert f"no ctxopt index at {db}; run `ctxopt index --db {db}` first" in result.err


def _without_aws(env: dict[str, str]) -> dict[str, str]:
    """env on top of this process's environment minus any AWS_* it holds (run_cli adds
    os.environ; a developer's own keys must not reach the missing-credentials case)."""
    blank = {name: "" for name in os.environ if name.startswith("AWS_") and name not in env}
    return {**blank, **env}
