"""`ctxopt tune` on real git repositories made here, with a real index on disk."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

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
from helpers import HashEmbedder, git, init_repo, write_files

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


def _commit(repo: Path, message: str, when: int) -> None:
    stamp = f"@{when} +0000"
    git(repo, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True, env=env)


def _history_repo(tmp: Path, fixes: int = 36) -> Path:
    """Cold modules full of the task's words, untouched for two years; hot modules that
    barely use them but are the ones every recent fix changes: recency is the signal the
    defaults underweight.  The index keeps no past messages (history_commits = 0): the fixes'
    messages point at the hot modules as well, and the fit could learn those instead."""
    repo = init_repo(tmp / "repo")
    files = {"ctxopt.toml": "history_commits = 0\n"}
    files |= {f"pkg/cold_{i:02d}.py": _module(f"cold_{i:02d}", 3) for i in range(30)}
    files |= {f"pkg/hot_{i:02d}.py": _module(f"hot_{i:02d}", 1) for i in range(8)}
    write_files(repo, files)
    _commit(repo, "Add the parsing package with its modules", BASE - 800 * DAY)
    for n in range(fixes):
        target = repo / f"pkg/hot_{n % 8:02d}.py"
        target.write_text(target.read_text() + f"\n# revision {n}\n")
        _commit(repo, f"Fix the record parser on a quoted {TAILS[n % 4]}", BASE + n * DAY)
    return repo


def _indexed(repo: Path) -> None:
    build_index(load_settings(repo), embedder=HashEmbedder(), workers=IN_PROCESS)


def _hot_share(repo: Path, settings_weights: dict[str, float] | None = None) -> float:
    overrides = {"weights": settings_weights} if settings_weights else None
    settings = load_settings(repo, overrides)
    result = search(settings, "Fix the record parser on quoted field", QueryOptions(k=8))
    return sum("hot_" in hit.chunk.path for hit in result.results) / len(result.results)


@pytest.fixture(scope="module")
def tuned_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = _history_repo(tmp_path_factory.mktemp("tune"))
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
    repo = _history_repo(tmp_path, fixes=3)
    _indexed(repo)
    with pytest.raises(UsageError, match="too few commits to tune on"):
        tune(load_settings(repo))
    done = run_cli("tune", "--path", str(repo))
    assert done.code == 2
    lines = [line for line in done.err.splitlines() if "error" in line]
    assert len(lines) == 1 and "too few commits to tune on" in lines[0], done.err
    assert "Traceback" not in done.err
    assert not (repo / ".ctxopt" / "tuned.json").exists()


def test_cli_prints_the_outcome_as_json(tuned_repo: Path) -> None:
    done = run_cli("tune", "--path", str(tuned_repo), "--commits", "40", "--json")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert data["kept"] is True and data["held_out"] >= 5
    assert "commits" in done.err  # progress on stderr
    stats = run_cli("stats", "--path", str(tuned_repo), "--json")
    assert stats.code == 0, stats.err
    assert stats.json()["ranking"].startswith("tuned")  # type: ignore[index]
