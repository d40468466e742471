"""The fit on hand-made examples: the objective counts files reached within the budgets, and
coordinate ascent moves weight to the feature that finds the modified files."""

from __future__ import annotations

import numpy as np

from ctxopt.discover.history import parse_log
from ctxopt.retrieve.scoring import merge_weights
from ctxopt.tune.examples import FEATURES, Example, task_of, usable
from ctxopt.tune.fit import as_vector, coordinate_ascent, objective, prepare
from ctxopt.types import PastCommit

LEXICAL = FEATURES.index("lexical")
RECENCY = FEATURES.index("recency")


def _example(gold_row: int, rows: int = 12, tokens: float = 3000.0) -> Example:
    """Candidates where lexical favours row 0 and recency favours the gold row."""
    features = np.zeros((rows, len(FEATURES)))
    features[:, LEXICAL] = np.linspace(1.0, 0.5, rows)
    features[gold_row, RECENCY] = 1.0
    gold_of = np.full(rows, -1)
    gold_of[gold_row] = 0
    return Example("x", features, np.ones(rows), np.full(rows, tokens), gold_of, 1)


def test_objective_counts_the_modified_files_reached_within_each_budget() -> None:
    weights = as_vector({"lexical": 1.0})
    first = prepare(_example(gold_row=0))
    second = prepare(_example(gold_row=2))  # 9000 tokens in: only the 16000 budget reaches it
    assert objective(weights, [first]) == 1.0
    assert objective(weights, [second]) == 1 / 3
    far = prepare(_example(gold_row=11))
    assert objective(weights, [far]) == 0.0


def test_coordinate_ascent_raises_the_signal_that_finds_the_files() -> None:
    items = [prepare(_example(gold_row=row)) for row in (5, 7, 9, 11) * 3]
    start = as_vector(merge_weights())
    fitted = coordinate_ascent(start, items)
    assert objective(fitted, items) > objective(start, items)
    assert fitted[RECENCY] * start[LEXICAL] > start[RECENCY] * fitted[LEXICAL]
    assert np.isclose(fitted.sum(), start.sum())


def test_usable_commits_have_a_real_message_and_few_indexed_source_files() -> None:
    indexed = {"src/a.py", "src/b.py", "tests/test_a.py", "README.md"}
    good = PastCommit("1", "Fix the parser on empty input\n\nSigned-off-by: A <a@b>", ("src/a.py",))
    assert usable(good, indexed) == ("src/a.py",)
    assert task_of(good.message) == "Fix the parser on empty input"
    assert usable(PastCommit("2", "wip", ("src/a.py",)), indexed) is None
    only_tests = PastCommit("3", "Cover the parser with more tests", ("tests/test_a.py",))
    assert usable(only_tests, indexed) is None
    assert usable(PastCommit("4", "Bump version to 1.2.3 now", ("src/a.py",)), indexed) is None
    gone = PastCommit("5", "Fix the old module that is gone", ("src/old.py",))
    assert usable(gone, indexed) is None


def test_git_log_output_is_read_per_commit_under_the_root() -> None:
    out = b"\x01aaa\x02Fix one thing\n\nbody\n\x03\0\nsub/x.py\0other/y.py\0\x01bbb\x02Second\x03\0"
    commits = parse_log(out, "sub/")
    assert [c.sha for c in commits] == ["aaa", "bbb"]
    assert commits[0].message == "Fix one thing\n\nbody"
    assert commits[0].modified == ("x.py",)
    assert commits[1].modified == ()
