"""Gates and the baseline comparison over report records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ctxopt.errors import UsageError
from ctxopt.index.stats import FolderTokens, folder_of, folder_tokens
from ctxopt.pack.baseline import REPORT_SCHEMA, compare, read_baseline, shares_little
from ctxopt.pack.gates import Gate, GateLimits, check_gates
from ctxopt.pack.savings import TaskSavings, savings_totals
from ctxopt.types import FileRecord


def _row(task: str, packed: int, repo: int = 10_000, budget: int = 8000) -> TaskSavings:
    saved = round(100 * (1 - packed / repo), 2)
    return TaskSavings(
        task, budget, "gpt-5", repo, packed, saved, repo * 1.25e-6, packed * 1.25e-6, 0.5
    )


def _record(path: str, tokens: int) -> FileRecord:
    return FileRecord(path, "h", 1, 1, "python", tokens, 1, 0)


def test_folders_at_depth() -> None:
    assert folder_of("a/b/c.py", 1) == "a"
    assert folder_of("a/b/c.py", 2) == "a/b"
    assert folder_of("a/b/c.py", 5) == "a/b"
    assert folder_of("top.py", 2) == "."
    records = [_record("a/x.py", 5), _record("b/y.py", 9), _record("a/z.py", 7), _record("r.py", 1)]
    assert folder_tokens(records, 1) == (
        FolderTokens("a", 2, 12),
        FolderTokens("b", 1, 9),
        FolderTokens(".", 1, 1),
    )


def test_fail_under_and_max_repo_tokens_both_ways() -> None:
    rows = [_row("small", 1_000), _row("big", 6_000)]  # 90% and 40% saved
    assert check_gates(GateLimits(fail_under=40), repo_tokens=10_000, tasks=rows, diff=None) == ()
    failed = check_gates(GateLimits(fail_under=50), repo_tokens=10_000, tasks=rows, diff=None)
    assert [(f.gate, f.subject, f.actual, f.excess) for f in failed] == [
        (Gate.FAIL_UNDER, "big", 40.0, 10.0)
    ]
    limits = GateLimits(max_repo_tokens=10_000)
    assert check_gates(limits, repo_tokens=10_000, tasks=rows, diff=None) == ()
    over = check_gates(limits, repo_tokens=10_001, tasks=rows, diff=None)
    assert [(f.gate, f.excess, f.is_task) for f in over] == [(Gate.MAX_REPO_TOKENS, 1, False)]


def _baseline_file(
    tmp_path: Path, folders: dict[str, int], tasks: dict[str, int] | list[TaskSavings]
) -> Path:
    rows = [_row(k, v) for k, v in tasks.items()] if isinstance(tasks, dict) else tasks
    data = {
        "schema": REPORT_SCHEMA,
        "generated_at": "2026-11-01T00:00:00Z",
        "tokens": sum(folders.values()),
        "depth": 1,
        "folders": [{"folder": k, "files": 1, "tokens": v} for k, v in folders.items()],
        "tasks": [
            {"task": r.task, "budget": r.budget, "model": r.model, "packed_tokens": r.packed_tokens}
            for r in rows
        ],
    }
    path = tmp_path / "base.json"
    path.write_text(json.dumps(data))
    return path


def test_growth_per_folder_and_task_and_the_gate(tmp_path: Path) -> None:
    baseline = read_baseline(_baseline_file(tmp_path, {"a": 1000, "b": 500}, {"t": 2000}))
    now = [FolderTokens("a", 1, 1200), FolderTokens("c", 1, 50)]
    diff = compare(baseline, repo_tokens=1250, depth=1, folders=now, tasks=[_row("t", 2100)])
    assert [(g.subject, g.before, g.after, g.percent) for g in diff.folders] == [
        ("b", 500, 0, -100.0),
        ("a", 1000, 1200, 20.0),
        ("c", 0, 50, None),
    ]
    assert [(g.subject, g.percent) for g in diff.tasks] == [("t", 5.0)]
    assert diff.repository.percent == pytest.approx(-16.67)
    ok = check_gates(GateLimits(max_growth=5), repo_tokens=1250, tasks=[], diff=diff)
    assert ok == ()
    failed = check_gates(GateLimits(max_growth=4), repo_tokens=1250, tasks=[], diff=diff)
    assert [(f.gate, f.subject, f.actual) for f in failed] == [(Gate.MAX_GROWTH, "t", 5.0)]
    with pytest.raises(UsageError, match="--depth 1"):
        compare(baseline, repo_tokens=1, depth=2, folders=now, tasks=[])


def test_tasks_are_compared_with_the_same_task_at_the_same_budget(tmp_path: Path) -> None:
    """Two entries with one text (at 8k and 4k) stay two; a budget changed since is a new
    task, not growth; a task new or gone is listed, never gated."""
    then = [_row("limit size", 6000), _row("limit size", 3000, budget=4000), _row("old", 900)]
    baseline = read_baseline(_baseline_file(tmp_path, {"a": 1000}, then))
    same = [_row("limit size", 6000), _row("limit size", 3000, budget=4000)]
    diff = compare(baseline, repo_tokens=1000, depth=1, folders=[], tasks=same)
    assert [(g.subject, g.before, g.after) for g in diff.tasks] == [
        ("limit size (8,000 tokens, gpt-5)", 6000, 6000),
        ("limit size (4,000 tokens, gpt-5)", 3000, 3000),
        ("old", 900, 0),
    ]
    assert check_gates(GateLimits(max_growth=0), repo_tokens=1000, tasks=[], diff=diff) == ()
    moved = [_row("limit size", 6500, budget=16_000), _row("fresh", 400)]
    diff = compare(baseline, repo_tokens=1000, depth=1, folders=[], tasks=moved)
    assert [(g.subject, g.before, g.after) for g in diff.tasks][:2] == [
        ("limit size (16,000 tokens, gpt-5)", 0, 6500),
        ("fresh", 0, 400),
    ]
    assert check_gates(GateLimits(max_growth=0), repo_tokens=1000, tasks=[], diff=diff) == ()


def test_bad_baselines(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        read_baseline(tmp_path / "none.json")
    other = tmp_path / "other.json"
    other.write_text('{"prompt": "x"}')
    with pytest.raises(UsageError, match="not the output of `ctxopt stats --json`"):
        read_baseline(other)


def test_a_baseline_of_another_schema_or_with_a_bad_value_says_so(tmp_path: Path) -> None:
    """Before, both read as "not the output of `ctxopt stats --json`" and "lacks a field ...:
    invalid literal for int() with base 10: 'many'" (found by a new user)."""
    older = tmp_path / "older.json"
    older.write_text(json.dumps({"schema": "ctxopt-stats/0", "tokens": 1}))
    with pytest.raises(UsageError, match="schema ctxopt-stats/0, which this ctxopt does not read"):
        read_baseline(older)
    data = json.loads(_baseline_file(tmp_path, {"a": 1}, {}).read_text())
    without_depth = {k: v for k, v in data.items() if k != "depth"}
    for broken, words in ((dict(data, tokens="many"), "wrong kind"), (without_depth, "'depth'")):
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(broken))
        with pytest.raises(UsageError, match=words) as refused:
            read_baseline(path)
        assert "invalid literal" not in str(refused.value)


def test_a_baseline_sharing_little_with_the_index_is_named(tmp_path: Path) -> None:
    """A baseline made from another repository (click's src/, tests/, docs/ against cobra)
    was compared without a word: most of its tokens lie in folders the index lacks."""
    baseline = read_baseline(_baseline_file(tmp_path, {"src": 900, "docs": 100}, {}))
    others = [FolderTokens("cmd", 1, 800), FolderTokens("docs", 1, 120)]
    assert shares_little(baseline, others) == pytest.approx(0.1)
    grown = [FolderTokens("src", 1, 2000), FolderTokens("new", 1, 5000)]
    assert shares_little(baseline, grown) is None  # the same repository, grown


def test_totals() -> None:
    totals = savings_totals([_row("a", 1_000), _row("b", 3_000)])
    assert (totals.repo_tokens, totals.packed_tokens, totals.saved_percent) == (20_000, 4_000, 80.0)
    assert totals.lowest_saved_percent == 70.0
    assert totals.cost_saved == pytest.approx(16_000 * 1.25e-6)
