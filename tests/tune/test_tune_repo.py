"""`ctxopt tune` on real git repositories made here, with a real index on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from history_repo import history_repo

from clitools import run_cli
from ctxopt.app.tune import tune
from ctxopt.config.settings import load_settings
from ctxopt.errors import UsageError
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.index.tuned import read_tuned
from ctxopt.retrieve.search import QueryOptions, search
from ctxopt.retrieve.tuned import ranking_view
from helpers import HashEmbedder, commit_all, git, init_repo, write_files


def _indexed(repo: Path) -> None:
    build_index(load_settings(repo), embedder=HashEmbedder(), workers=IN_PROCESS)


def _hot_share(repo: Path, settings_weights: dict[str, float] | None = None) -> float:
    overrides = {"weights": settings_weights} if settings_weights else None
    settings = load_settings(repo, overrides)
    result = search(settings, "Fix the record parser on quoted field", QueryOptions(k=8))
    return sum("hot_" in hit.chunk.path for hit in result.results) / len(result.results)


@pytest.fixture(scope="module")
def tuned_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = history_repo(tmp_path_factory.mktemp("tune"))
    _indexed(repo)
    return repo


def test_tune_learns_the_signal_and_beats_the_defaults_on_held_out_commits(
    tuned_repo: Path,
) -> None:
    before = _hot_share(tuned_repo)
    notes: list[str] = []
    outcome = tune(load_settings(tuned_repo), notify=notes.append)
    assert outcome.kept, outcome
    assert outcome.after > outcome.before
    assert outcome.weights["recency"] > 0.1  # the default
    assert any("commits" in n for n in notes)  # progress was reported
    assert any(n.strip().endswith(f"{2 * outcome.held_out} packs") for n in notes)  # the check
    stored = read_tuned(load_settings(tuned_repo).db_path)
    assert stored is not None and stored.weights == outcome.weights
    assert _hot_share(tuned_repo) > before  # queries now rank with the tuned weights
    view = ranking_view(
        load_settings(tuned_repo), IndexReader(tuned_repo / ".ctxopt").meta().embedder
    )
    assert view.source == "tuned" and "held-out" in view.line


def test_a_users_weights_win_over_the_tuned_ones(tuned_repo: Path) -> None:
    if read_tuned(load_settings(tuned_repo).db_path) is None:
        tune(load_settings(tuned_repo))
    settings = load_settings(tuned_repo, {"weights": {"recency": 0.0}})
    view = ranking_view(settings, IndexReader(settings.db_path).meta().embedder)
    assert view.weights["recency"] == 0.0
    assert "your settings set recency" in view.line
    assert _hot_share(tuned_repo, {"recency": 0.0}) < _hot_share(tuned_repo)


def test_tuned_weights_of_another_embedder_are_ignored(tuned_repo: Path) -> None:
    db = load_settings(tuned_repo).db_path
    assert read_tuned(db, "minilm-something") is None


def test_too_few_commits_is_one_clear_line(tmp_path: Path) -> None:
    repo = history_repo(tmp_path, fixes=3)
    _indexed(repo)
    with pytest.raises(UsageError, match="too few commits to tune on"):
        tune(load_settings(repo))
    done = run_cli("tune", "--path", str(repo))
    assert done.code == 2
    lines = [line for line in done.err.splitlines() if "error" in line]
    assert len(lines) == 1 and "too few commits to tune on" in lines[0], done.err
    assert "Traceback" not in done.err
    assert not (repo / ".ctxopt" / "tuned.json").exists()
    # counted before any message is ranked (until 2026-12-02 it ranked every one first)
    assert "the candidates of each message" not in done.err


def test_a_folder_without_history_is_named_as_such(tmp_path: Path) -> None:
    """A folder outside git, or a repository with no commit yet, was told "none of the last
    300 modifies a file" (found by a new user)."""
    for folder, make in ((tmp_path / "plain", False), (tmp_path / "fresh", True)):
        write_files(folder, {"a.py": "def a():\n    return 1\n"})
        if make:
            git(folder, "init", "-q")
        _indexed(folder)
        with pytest.raises(UsageError, match="it has no git history") as refused:
            tune(load_settings(folder))
        assert "none of the last" not in str(refused.value)


def test_cli_prints_the_outcome_as_json(tuned_repo: Path) -> None:
    done = run_cli("tune", "--path", str(tuned_repo), "--commits", "40", "--json")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert data["kept"] is True and data["held_out"] >= 5
    assert "commits" in done.err  # progress on stderr
    stats = run_cli("stats", "--path", str(tuned_repo), "--json")
    assert stats.code == 0, stats.err
    assert stats.json()["ranking"].startswith("tuned")  # type: ignore[index]


def test_reset_removes_the_tuned_weights_and_the_defaults_rank_again(tmp_path: Path) -> None:
    repo = history_repo(tmp_path)
    _indexed(repo)
    tuned = tune(load_settings(repo))
    assert tuned.kept
    tuned_share = _hot_share(repo)
    done = run_cli("tune", "--path", str(repo), "--reset")
    assert done.code == 0, done.err
    assert "removed" in done.out
    assert read_tuned(load_settings(repo).db_path) is None
    stats = run_cli("stats", "--path", str(repo), "--json")
    assert stats.json()["ranking"].startswith("defaults")  # type: ignore[index]
    assert _hot_share(repo) < tuned_share  # queries rank with the defaults again
    again = run_cli("tune", "--path", str(repo), "--reset", "--json")
    assert again.code == 0 and again.json() == {"removed": False}
    both = run_cli("tune", "--path", str(repo), "--reset", "--commits", "50")
    assert both.code == 2 and "give --reset or --commits, not both" in both.err


def test_a_history_that_only_adds_files_is_too_few_commits(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "one")
    write_files(repo, {"app.py": "def start():\n    return 1\n"})
    commit_all(repo, "the first commit")
    _indexed(repo)
    done = run_cli("tune", "--path", str(repo))
    assert done.code == 2 and "too few commits to tune on" in done.err, done.err
