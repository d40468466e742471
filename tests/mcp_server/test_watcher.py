"""The server's file watcher: a change made just before a call is seen by that call, and a
call skips the freshness check only while nothing changed (real watcher, real index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.config.settings import load_settings
from ctxopt.mcp_server.service import PackCall, QueryCall, RepoService
from ctxopt.mcp_server.watcher import TreeWatcher
from helpers import git, init_repo
from mcpclient import call, data, mcp_session, run

pytestmark = pytest.mark.slow


def test_a_change_made_just_before_a_drain_is_in_it(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    (repo / ".ctxopt").mkdir()
    watcher = TreeWatcher(repo, repo / ".ctxopt")
    try:
        assert watcher.drain() is False
        for round_ in range(25):  # no pause between the write and the drain
            (repo / "module.py").write_text(f"VALUE = {round_}\n", encoding="utf-8")
            assert watcher.drain() is True, round_
            assert watcher.drain() is False, round_
        (repo / ".ctxopt" / "chunks.tmp").write_text("index data", encoding="utf-8")
        git(repo, "add", "module.py")  # writes under .git only
        assert watcher.drain() is False
        (repo / "module.py").unlink()
        assert watcher.drain() is True
    finally:
        watcher.close()
    assert watcher.drain() is None and not watcher.live


def test_calls_skip_the_check_only_while_nothing_changed(own_indexed_repo: Path) -> None:
    service = RepoService(load_settings(own_indexed_repo))
    try:
        service.pack(PackCall(task="reserve stock", budget=2000))  # starts the watcher
        service.pack(PackCall(task="reserve stock", budget=2000))
        skipped = service.fresh.skipped
        assert skipped >= 1
        extra = own_indexed_repo / "inventory" / "extra.py"
        for round_ in range(3):
            name = f"count_pallets_{round_}"
            extra.write_text(f"def {name}(shelf):\n    return len(shelf)\n", encoding="utf-8")
            result, freshness = service.query(QueryCall(task=f"{name} shelf", top=3))
            assert freshness.refreshed and result.results[0].chunk.name == name
            assert service.fresh.skipped == skipped  # the change was seen: a full check
            service.query(QueryCall(task="reserve stock", top=3))  # checks once more
            assert service.fresh.skipped == skipped
            service.query(QueryCall(task="reserve stock", top=3))
            skipped += 1
            assert service.fresh.skipped == skipped
    finally:
        service.close()


def test_git_excluding_a_file_is_seen_without_a_work_tree_change(own_indexed_repo: Path) -> None:
    service = RepoService(load_settings(own_indexed_repo))
    notes = own_indexed_repo / "notes"
    notes.mkdir()
    (notes / "todo.py").write_text("def tidy_the_loading_dock():\n    pass\n", "utf-8")
    task = QueryCall(task="tidy the loading dock", top=10)
    try:
        result, _ = service.query(task)
        assert result.results[0].chunk.path == "notes/todo.py"  # untracked, listed by git
        service.query(task)
        service.query(task)
        skipped = service.fresh.skipped
        assert skipped >= 1
        exclude = own_indexed_repo / ".git" / "info" / "exclude"
        exclude.parent.mkdir(exist_ok=True)
        exclude.write_text("notes/\n", encoding="utf-8")  # no event: .git is not watched
        result, freshness = service.query(task)
        assert freshness.refreshed and service.fresh.skipped == skipped
        assert all(hit.chunk.path != "notes/todo.py" for hit in result.results)
    finally:
        service.close()


def test_changes_between_tool_calls_over_stdio_are_seen(
    own_indexed_repo: Path, tmp_path: Path
) -> None:
    repo = own_indexed_repo
    extra = repo / "inventory" / "extra.py"

    async def conversation() -> list[str]:
        names = []
        async with mcp_session(repo, errlog=tmp_path / "err") as session:
            await call(session, "query", {"task": "reserve stock", "top": 1})
            for round_ in range(3):
                name = f"rotate_pallets_{round_}"
                extra.write_text(f"def {name}(shelf):\n    return shelf[::-1]\n", "utf-8")
                found = data(await call(session, "query", {"task": f"{name} shelf", "top": 1}))
                names.append(found["results"][0]["name"])
                await call(session, "query", {"task": "reserve stock", "top": 1})
        return names

    assert run(conversation) == [f"rotate_pallets_{i}" for i in range(3)]
