"""A big class packed as its summary: its line numbers are the file's, and `--json` names
the lines its markers leave out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clitools import CliRunner, run_cli
from helpers import commit_all, init_repo, write_files

TASK = "explain the Engine class"
NUMBERED = re.compile(r"^ *(\d+)\| (.*)$")


def engine_module() -> str:
    lines = ["import queue", "", "", "class Engine:", '    """Runs queued jobs."""', ""]
    lines += ["    def __init__(self, size):", "        self.jobs = queue.Queue(size)", ""]
    for i in range(40):
        lines += [f"    def stage_{i}(self, job):", f'        """Stage {i} of a job."""']
        lines += [f"        job.record({i}, step={j}, total=self.total_{j})" for j in range(10)]
        lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = init_repo(tmp_path_factory.mktemp("summary") / "repo")
    write_files(repo, {"engine.py": engine_module(), "main.py": "from engine import Engine\n"})
    commit_all(repo)
    result = run_cli("index", str(repo), "--quiet")
    assert result.code == 0, result.err
    return repo


def test_numbered_rows_are_the_file_s_lines(repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(repo), "--budget", "3000", "--line-numbers")
    assert result.code == 0, result.err
    file_lines = (repo / "engine.py").read_text().split("\n")
    section = result.out.split("## engine.py")[1].split("\n## ")[0]
    numbered = [m for m in map(NUMBERED.match, section.split("\n")) if m]
    assert any(m.group(2) == "class Engine:" for m in numbered)  # the summary is numbered
    assert any(int(m.group(1)) > 100 for m in numbered)  # past the first body left out
    for match in numbered:
        assert match.group(2) == file_lines[int(match.group(1)) - 1]


def test_json_names_the_lines_a_summary_leaves_out(repo: Path, cli: CliRunner) -> None:
    data = cli("pack", TASK, "--path", str(repo), "--budget", "3000", "--json").json()
    (engine,) = [c for c in data["chunks"] if c["name"] == "Engine"]
    elided = engine["elided_lines"]
    assert len(elided) >= 40  # at least each stage's body
    assert all(engine["start_line"] < first <= last <= engine["end_line"] for first, last in elided)
    file_lines = (repo / "engine.py").read_text().split("\n")
    left_out = {n for first, last in elided for n in range(first, last + 1)}
    assert {n for n, line in enumerate(file_lines, 1) if "job.record(" in line} <= left_out
    shown = {n for n in range(engine["start_line"], engine["end_line"] + 1)} - left_out
    assert {file_lines[n - 1] for n in shown} - {""} <= set(engine["compressed"].split("\n"))
    assert all(c["elided_lines"] == [] for c in data["chunks"] if c["fidelity"] == "full"
               and c["name"] != "Engine")  # fmt: skip


def test_the_label_says_a_summary_is_an_outline(repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(repo), "--budget", "3000")
    assert "Engine (lines " in result.out
    assert ", outline: member bodies left out)" in result.out


def test_a_summary_of_an_edited_file_is_not_numbered(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"engine.py": engine_module()})
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    edited = engine_module().replace("def stage_7(self, job):", "def stage_7(self, job, at):")
    (repo / "engine.py").write_text(edited)
    args = ("pack", TASK, "--path", str(repo), "--budget", "3000", "--no-refresh")
    result = cli(*args, "--line-numbers")
    assert result.code == 0, result.err
    assert "class Engine:" in result.out and "| class Engine:" not in result.out
    (engine,) = [c for c in cli(*args, "--json").json()["chunks"] if c["name"] == "Engine"]
    assert engine["elided_lines"] is None  # unknown: its rows are no longer all in the file
