"""Tasks files in each accepted form, and one clear UsageError for each bad one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ctxopt.errors import UsageError
from ctxopt.pack.models import load_models
from ctxopt.pack.tasks_file import SavingsTask, read_tasks_file

MODELS = load_models()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_one_task_per_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "tasks.txt", "# comment\nfix the login bug\n\n  add a CSV export  \n")
    assert read_tasks_file(path, MODELS) == (
        SavingsTask("fix the login bug"),
        SavingsTask("add a CSV export"),
    )


def test_yaml_entries_with_budget_and_model_alias(tmp_path: Path) -> None:
    text = "- fix the login bug\n- task: add a CSV export\n  budget: 4000\n  model: sonnet\n"
    path = _write(tmp_path, "tasks.yml", text)
    assert read_tasks_file(path, MODELS) == (
        SavingsTask("fix the login bug"),
        SavingsTask("add a CSV export", 4000, "claude-sonnet-4-5"),
    )


def test_json_entries_under_tasks_key(tmp_path: Path) -> None:
    data = {"tasks": [{"task": "explain the scheduler", "model": "gpt-5"}, "review the diff"]}
    path = _write(tmp_path, "tasks.json", json.dumps(data))
    assert read_tasks_file(path, MODELS) == (
        SavingsTask("explain the scheduler", None, "gpt-5"),
        SavingsTask("review the diff"),
    )


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("tasks.yaml", "- task: [unclosed\n", "not valid YAML at line"),
        ("tasks.json", '[{"task": "x",}]', "not valid JSON at line 1"),
        ("tasks.yml", "- task: x\n  model: no-such-model\n", "unknown model 'no-such-model'"),
        ("tasks.yml", "- task: x\n  budget: -5\n", "'budget' must be positive"),
        ("tasks.yml", "- task: x\n  budgte: 5\n", "unknown key budgte"),
        ("tasks.yml", "task: x\n", "expected a list of tasks (or a 'tasks:' list), got a mapping"),
        ("tasks.yml", "", "is empty: list the tasks to pack"),
        ("tasks.json", '"fix it"', "got a single text"),
        ("tasks.txt", "# only a comment\n\n", "holds no task"),
    ],
)
def test_bad_files_raise_one_usage_error(tmp_path: Path, name: str, text: str, words: str) -> None:
    path = _write(tmp_path, name, text)
    with pytest.raises(UsageError) as caught:
        read_tasks_file(path, MODELS)
    assert words in str(caught.value)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        read_tasks_file(tmp_path / "nope.yml", MODELS)
