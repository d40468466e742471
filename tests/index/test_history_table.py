"""The index keeps its repository's newest commit messages, and the ranking reads them as
evidence: a real git repository, a real index on disk, real queries."""

from __future__ import annotations

import json
from pathlib import Path

from ctxopt.config.settings import load_settings
from ctxopt.index import schema
from ctxopt.index.build import build_index, plan_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.search import QueryOptions, search
from helpers import HashEmbedder, commit_all, init_repo, write_files

TASK = "cookie is not refreshed on every request"
HISTORY_ON = 0.25  # the weight measured on the benchmark (README: Past commits as evidence)


def _function(name: str, words: str) -> str:
    return f"def {name}(value):\n    # {words}\n" + "    value += 1\n" * 6 + "    return value\n"


def _repo(tmp: Path) -> Path:
    """Two modules whose code says nothing of cookies, the views more of the task's other
    words; the past fixes of the store speak of cookies."""
    repo = init_repo(tmp / "repo")
    write_files(
        repo,
        {
            "app/store.py": _function("save_state", "keep the state; a request"),
            "app/views.py": _function("render_page", "the request, the request"),
        },
    )
    commit_all(repo, "Add the store and the views")
    for n, message in enumerate(
        (
            "Session cookie is not refreshed on every request",
            "Cookie expiry is not refreshed after login",
            "Render the page title from the state",
        )
    ):
        target = repo / ("app/views.py" if "Render" in message else "app/store.py")
        target.write_text(target.read_text() + f"# revision {n}\n")
        commit_all(repo, message)
    return repo


def _index(repo: Path, **overrides: object) -> None:
    settings = load_settings(repo, dict(overrides) or None)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)


def _top(repo: Path, **overrides: object) -> tuple[str, dict[str, float], tuple[str, ...]]:
    result = search(load_settings(repo, dict(overrides) or None), TASK, QueryOptions(k=5))
    best = result.results[0]
    return best.chunk.path, dict(best.factors), best.reasons


def test_the_index_keeps_the_newest_commits_that_modified_files(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _index(repo)
    kept = IndexReader(repo / ".ctxopt").past_commits()
    assert [c.message for c in kept] == [
        "Render the page title from the state",
        "Cookie expiry is not refreshed after login",
        "Session cookie is not refreshed on every request",
    ]  # newest first; the first commit only added files
    assert kept[0].modified == ("app/views.py",)


def test_past_messages_like_the_task_rank_the_file_they_changed(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _index(repo)
    path, factors, reasons = _top(repo, weights={"history": HISTORY_ON})
    assert path == "app/store.py"
    assert factors["history"] > 0
    assert any("past commits like the task" in r for r in reasons)
    path_off, factors_off, _ = _top(repo)
    assert path_off == "app/views.py"  # the task's words alone point at the views
    assert factors_off.get("history", 0.0) == 0.0  # off by default (README: measured)


def test_history_commits_sets_how_many_are_kept_and_a_change_applies_at_once(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    _index(repo, history_commits=1)
    assert len(IndexReader(repo / ".ctxopt").past_commits()) == 1
    _index(repo, history_commits=0)  # no new commit, no changed file: still rewritten
    assert IndexReader(repo / ".ctxopt").past_commits() == ()
    path, factors, _ = _top(repo, history_commits=0, weights={"history": HISTORY_ON})
    assert path == "app/views.py" and factors.get("history", 0.0) == 0.0


def test_an_index_from_before_the_history_table_reads_and_gets_it_next_run(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    _index(repo)
    db = repo / ".ctxopt"
    marker = json.loads((db / "committed.json").read_text())
    del marker["versions"][schema.HISTORY]  # as a marker written before the table was
    (db / "committed.json").write_text(json.dumps(marker))
    assert IndexReader(db).past_commits() == ()
    assert search(load_settings(repo), TASK, QueryOptions(k=3)).results  # queries still run
    assert plan_index(load_settings(repo)).history_due
    _index(repo)
    assert len(IndexReader(db).past_commits()) == 3
    assert not plan_index(load_settings(repo)).history_due
