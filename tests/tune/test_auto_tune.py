"""`ctxopt index` tunes the ranking weights itself when the history allows (`auto_tune`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from history_repo import BASE, DAY, commit_at, history_repo

from clitools import run_cli
from ctxopt.app import auto_tune
from ctxopt.app.auto_tune import retune_reason
from ctxopt.config.settings import load_settings
from ctxopt.index.tuned import TunedWeights, read_tuned
from helpers import git
from s3server import S3Server

FIXES = 48  # usable commits: the initial one plus the fixes, above MIN_USABLE
ON = {"CTXOPT_AUTO_TUNE": "true"}


def _index_json(repo: Path, env: dict[str, str] | None = ON) -> tuple[dict[str, object], str]:
    done = run_cli("index", str(repo), "--json", env=env)
    assert done.code == 0, done.err
    return json.loads(done.out), done.err


def _stored(repo: Path) -> TunedWeights | None:
    return read_tuned(load_settings(repo).db_path)


@pytest.fixture(scope="module")
def tuned_by_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object], str]:
    repo = history_repo(tmp_path_factory.mktemp("auto"), fixes=FIXES)
    data, err = _index_json(repo)
    return repo, data, err


def test_the_first_index_tunes_and_the_weights_are_in_force(
    tuned_by_index: tuple[Path, dict[str, object], str],
) -> None:
    repo, data, err = tuned_by_index
    tuned = data["tuned"]
    assert isinstance(tuned, dict)
    assert tuned["kept"] is True and tuned["after"] > tuned["before"]
    assert tuned["head"] == git(repo, "rev-parse", "HEAD").strip()
    assert "tuning the ranking weights" in err  # --json: the figures on stdout, progress on stderr
    stored = _stored(repo)
    assert stored is not None and stored.weights == tuned["weights"]
    stats = run_cli("stats", "--path", str(repo), "--json")
    assert stats.code == 0, stats.err
    assert stats.json()["ranking"].startswith("tuned")  # type: ignore[index]


def test_an_index_at_the_same_head_does_not_tune_again(
    tuned_by_index: tuple[Path, dict[str, object], str],
) -> None:
    repo, _, _ = tuned_by_index
    before = _stored(repo)
    (repo / "pkg" / "new_module.py").write_text("def added():\n    return 1\n")
    data, err = _index_json(repo)
    assert data["tuned"] is None and data["added"] == 1
    assert "tuning" not in err
    assert _stored(repo) == before


def test_the_text_summary_says_what_tuning_found(tmp_path: Path) -> None:
    repo = history_repo(tmp_path, fixes=FIXES)
    done = run_cli("index", str(repo), env=ON)
    assert done.code == 0, done.err
    assert done.out == ""  # stdout carries no progress nor summary
    assert "tuning the ranking weights to the last" in done.err  # progress
    assert "fitting on" in done.err
    lines = [line for line in done.err.splitlines() if line.startswith("ranking weights:")]
    assert len(lines) == 1 and "held-out changed lines shown" in lines[0], done.err


def test_auto_tune_is_off_unless_set(tmp_path: Path) -> None:
    repo = history_repo(tmp_path, fixes=FIXES)
    data, err = _index_json(repo, env=None)
    assert data["tuned"] is None and "tuning" not in err
    assert _stored(repo) is None
    (repo / "ctxopt.toml").write_text("history_commits = 0\nauto_tune = true\n")
    data, _ = _index_json(repo, env=None)
    assert isinstance(data["tuned"], dict) and data["tuned"]["kept"] is True


def test_too_little_history_is_recorded_once_per_head(tmp_path: Path) -> None:
    repo = history_repo(tmp_path, fixes=5)
    data, err = _index_json(repo)
    tuned = data["tuned"]
    assert isinstance(tuned, dict) and not tuned["kept"]
    assert "too little history" in str(tuned["skipped"])
    assert "tuning the ranking" not in err  # nothing was fitted
    stats = run_cli("stats", "--path", str(repo), "--json")
    assert stats.json()["ranking"].startswith("defaults (too little history")  # type: ignore[index]
    again, _ = _index_json(repo)
    assert again["tuned"] is None  # the same HEAD: not looked at again
    (repo / "pkg" / "hot_00.py").write_text("def moved():\n    return 2\n")
    commit_at(repo, "Change the hot module once more for the record parser", BASE + 99 * DAY)
    moved, _ = _index_json(repo)
    assert isinstance(moved["tuned"], dict) and moved["tuned"]["skipped"]  # looked at again


def _outcome(head: str, skipped: str = "") -> TunedWeights:
    return TunedWeights({}, False, "e", head, 40, 10, 0.5, 0.5, skipped=skipped)


def test_retuning_waits_for_enough_new_commits_on_the_same_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = history_repo(tmp_path, fixes=4)
    settings = load_settings(repo)
    shas = git(repo, "rev-list", "HEAD").split()  # newest first
    head = shas[0]
    monkeypatch.setattr(auto_tune, "RETUNE_AFTER", 3)
    assert retune_reason(settings, None, head) == "first tuning"
    assert retune_reason(settings, _outcome(head), head) is None
    assert retune_reason(settings, _outcome(shas[2]), head) is None  # 2 commits since
    assert retune_reason(settings, _outcome(shas[3]), head) == "3 commits since it was last tuned"
    assert retune_reason(settings, _outcome(shas[1], skipped="too little"), head) == "HEAD moved"
    git(repo, "checkout", "-q", "--orphan", "other")
    commit_at(repo, "Start another line of history for the parser", BASE + 200 * DAY)
    other = git(repo, "rev-parse", "HEAD").strip()
    reason = retune_reason(settings, _outcome(head), other)
    assert reason is not None and "left the line" in reason


def test_tuning_as_index_runs_keeps_its_outcome_in_the_bucket(
    s3_server: S3Server, tmp_path: Path
) -> None:
    repo = history_repo(tmp_path / "work", fixes=FIXES)
    db = f"s3://{s3_server.bucket()}/tuned"
    env = {**s3_server.env(tmp_path), **ON}
    first = run_cli("index", str(repo), "--db", db, "--json", env=env)
    assert first.code == 0, first.err
    tuned: Any = first.json()
    assert tuned["tuned"]["kept"] is True
    assert not (repo / ".ctxopt").exists()  # nothing beside the work tree
    stats = run_cli("stats", "--path", str(repo), "--db", db, "--json", env=env)
    assert stats.code == 0, stats.err
    assert stats.json()["ranking"].startswith("tuned")  # type: ignore[index]
    again = run_cli("index", str(repo), "--db", db, "--json", env=env)
    assert again.code == 0 and again.json()["tuned"] is None  # type: ignore[index]
