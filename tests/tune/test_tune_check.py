"""The held-out check of `ctxopt tune`: real packs, scored by the added lines they show."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from history_repo import BASE, DAY, commit_at

from ctxopt.app.tune_check import CHECK_MEASURE, check_cases, compare, shown_shares
from ctxopt.cli.render_tune import tune_text, verdict
from ctxopt.config.settings import Settings, load_settings
from ctxopt.discover.history import recent_commits
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.index.tuned import TunedWeights, read_tuned
from ctxopt.retrieve.scoring import merge_weights
from ctxopt.retrieve.tuned import ranking_view
from ctxopt.tune.examples import build_examples
from ctxopt.tune.fit import MIN_GAIN
from ctxopt.types import PastCommit
from helpers import HashEmbedder, init_repo, write_files


def _function(name: str, body_lines: int) -> str:
    body = "".join(f"    total = total + {i}  # step {i} of {name}\n" for i in range(body_lines))
    return f"def {name}(total):\n{body}    return total\n"


def _repo(tmp: Path) -> Path:
    """Three commits: one adds a line that stays, one adds a line later taken out again,
    and the one that takes it out."""
    repo = init_repo(tmp / "repo")
    files = {f"pkg/mod_{i}.py": _function(f"helper_{i}", 20) for i in range(6)}
    write_files(repo, {"ctxopt.toml": "history_commits = 0\n", **files})
    commit_at(repo, "Add the package", BASE)
    kept = repo / "pkg/mod_2.py"
    kept.write_text(kept.read_text() + "\n\ndef checksum_of_ledger(ledger):\n"
                    "    return sum(entry.amount for entry in ledger)\n")  # fmt: skip
    commit_at(repo, "Add checksum_of_ledger for the ledger totals", BASE + DAY)
    gone = repo / "pkg/mod_4.py"
    original = gone.read_text()
    gone.write_text(original + "\nTEMPORARY_FLAG_FOR_TRIAL = True\n")
    commit_at(repo, "Add a temporary flag for the trial run", BASE + 2 * DAY)
    gone.write_text(original)
    commit_at(repo, "Remove the temporary flag for the trial run", BASE + 3 * DAY)
    build_index(load_settings(repo), embedder=HashEmbedder(), workers=IN_PROCESS)
    return repo


@dataclass(frozen=True)
class Checked:
    settings: Settings
    reader: IndexReader
    weights: dict[str, float]
    commits: dict[str, PastCommit]  # by message


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    repo = _repo(tmp_path_factory.mktemp("check"))
    settings = load_settings(repo)
    reader = IndexReader(settings.db_path)
    commits = {c.message.strip(): c for c in recent_commits(repo, "HEAD", 10)}
    return Checked(settings, reader, merge_weights(embedder=reader.meta().embedder), commits)


def test_a_pack_showing_the_added_lines_scores_them_and_gone_lines_are_skipped(
    checked: Checked,
) -> None:
    added = checked.commits["Add checksum_of_ledger for the ledger totals"]
    flag = checked.commits["Add a temporary flag for the trial run"]

    def shares(commits: list[PastCommit]) -> list[float]:
        cases = check_cases(
            checked.settings, build_examples(checked.settings, checked.reader, commits)
        )
        [found] = shown_shares(checked.settings, checked.reader, cases, [checked.weights])
        return found

    # the checksum function is named by the task: its pack shows both added lines
    assert shares([added]) == [1.0]
    # the flag's line is no longer in the code: that commit is not scored at all
    assert shares([flag]) == []
    assert shares([added, flag]) == [1.0]


def test_a_pack_that_shows_nothing_scores_zero(checked: Checked) -> None:
    added = checked.commits["Add checksum_of_ledger for the ledger totals"]
    # a budget the task and the prompt's frame alone exceed: no pack, nothing shown
    cases = check_cases(checked.settings, build_examples(checked.settings, checked.reader, [added]))
    [[share]] = shown_shares(checked.settings, checked.reader, cases, [checked.weights], budget=20)
    assert share == 0.0


def test_fitted_weights_win_only_when_more_commits_gain_than_lose() -> None:
    # one commit gains much and two lose a little: a higher mean, but more commits lose
    carried = compare([0.0, 0.5, 0.5], [1.0, 0.4, 0.4])
    assert carried.after >= carried.before + MIN_GAIN
    assert (carried.better, carried.worse) == (1, 2)
    assert not carried.fitted_win
    broad = compare([0.5, 0.5, 0.5], [0.6, 0.6, 0.5])
    assert (broad.better, broad.worse) == (2, 0)
    assert broad.fitted_win
    # more commits gain, but by too little on average
    assert not compare([0.5, 0.5, 0.5], [0.5005, 0.5005, 0.5]).fitted_win
    assert not compare([0.7, 0.7], [0.7, 0.7]).fitted_win
    assert not compare([], []).fitted_win


def test_the_verdict_counts_the_commits_each_way() -> None:
    outcome = TunedWeights(
        weights={}, kept=False, embedder="static", head="0" * 40, commits=150, held_out=38,
        before=0.738, after=0.736, measure=CHECK_MEASURE, better=1, worse=4,
    )  # fmt: skip
    assert verdict(outcome) == (
        "held-out changed lines shown at 8k 0.738 (defaults) -> 0.736 (tuned) on the 38 newest "
        "of 150 commits, more on 1 and fewer on 4: not better, the default weights stay in force"
    )
    older = replace(outcome, measure="held-out recall", better=None, worse=None)
    assert "more on" not in verdict(older)
    fitted = {"lexical": 0.5}
    assert "\nfitted, not kept: lexical " in tune_text(replace(outcome, fitted=fitted))
    assert "\nweights: lexical " in tune_text(replace(outcome, fitted=fitted, kept=True))


def test_an_outcome_stored_by_an_older_tune_keeps_its_label(tmp_path: Path) -> None:
    """tuned.json of a run before the pack check has no `measure`: it still reads, and
    says what its figures were."""
    repo = _repo(tmp_path)
    settings = load_settings(repo)
    embedder = IndexReader(settings.db_path).meta().embedder
    older = {
        "format": 1, "weights": {"recency": 0.3}, "kept": True, "embedder": embedder,
        "head": "0" * 40, "commits": 60, "held_out": 15, "before": 0.5, "after": 0.6,
    }  # fmt: skip
    (settings.db_path / "tuned.json").write_text(json.dumps(older))
    view = ranking_view(settings, embedder)
    assert view.source == "tuned" and view.weights["recency"] == 0.3
    assert "held-out recall 0.500 -> 0.600" in view.line
    as_stored = read_tuned(settings.db_path)
    assert as_stored is not None and (as_stored.better, as_stored.worse) == (None, None)
    newer = {**older, "measure": CHECK_MEASURE, "better": 3, "worse": 1}
    (settings.db_path / "tuned.json").write_text(json.dumps(newer))
    stored = read_tuned(settings.db_path)
    assert stored is not None and (stored.better, stored.worse) == (3, 1)
    # a count that is not one: the file is not trusted, the defaults rank
    (settings.db_path / "tuned.json").write_text(json.dumps({**newer, "better": "3"}))
    assert read_tuned(settings.db_path) is None
    assert ranking_view(settings, embedder).source == "defaults"
