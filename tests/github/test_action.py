"""The GitHub workflows and the composite action: actionlint finds no problem (and does
find a planted one), and the action's shell steps run against a real temporary repository
with the environment its inputs give, as the runner would (no network: pip is a stub)."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from helpers import ROOT, commit_all, git, sample_repo, write_files

ACTION = ROOT / ".github" / "actions" / "ctxopt-report" / "action.yml"
WORKFLOWS = ROOT / ".github" / "workflows"
EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def actionlint() -> str:
    found = shutil.which("actionlint") or shutil.which(
        "actionlint", path=str(Path(sys.executable).parent)
    )
    assert found, "actionlint is missing: pip install -e '.[test]' installs it"
    return found


def lint(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [actionlint(), "-no-color"], cwd=repo, capture_output=True, text=True, timeout=120
    )


def test_workflows_and_action_pass_actionlint() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    names = {p.name for p in WORKFLOWS.glob("*.yml")}
    assert {"ci.yml", "ctxopt-report.yml"} <= names


def test_actionlint_catches_a_wrong_action_input(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    git(copy, "init", "-q")
    shutil.copytree(ROOT / ".github", copy / ".github")
    workflow = copy / ".github" / "workflows" / "ctxopt-report.yml"
    workflow.write_text(workflow.read_text().replace("fail-under:", "fail-undr:"))
    done = lint(copy)
    assert done.returncode != 0
    assert "fail-undr" in done.stdout


def test_ci_caches_pip() -> None:
    ci = yaml.safe_load((WORKFLOWS / "ci.yml").read_text())
    setup = next(s for s in ci["jobs"]["test"]["steps"] if "setup-python" in s.get("uses", ""))
    assert setup["with"]["cache"] == "pip"


def _action() -> dict[str, Any]:
    data = yaml.safe_load(ACTION.read_text())
    assert data["runs"]["using"] == "composite"
    return data


def test_every_input_used_is_declared_and_every_run_step_has_a_shell() -> None:
    data = _action()
    declared = set(data["inputs"])
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", ACTION.read_text()))
    assert used and used <= declared, used - declared
    for step in data["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash", step


def _evaluate(expression: str, context: dict[str, str]) -> str:
    if expression not in context:
        raise AssertionError(f"the test gives no value for ${{{{ {expression} }}}}")
    return context[expression]


def _substitute(value: str, context: dict[str, str]) -> str:
    return EXPRESSION.sub(lambda m: _evaluate(m.group(1), context), value)


def _outputs(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    return dict(pairs)


def run_action(inputs: dict[str, str], tmp: Path, bin_dir: Path) -> dict[str, Any]:
    """Each run step through bash with the env its inputs give; uses: steps are noted."""
    data = _action()
    values = {k: str(v.get("default", "")) for k, v in data["inputs"].items()}
    values.update(inputs)
    tmp.mkdir()
    files = {n: tmp / n for n in ("summary.md", "output.txt")}
    for path in files.values():
        path.write_text("")
    context = {f"inputs.{k}": v for k, v in values.items()}
    context.update({"github.action_path": str(ACTION.parent), "runner.temp": str(tmp / "rt")})
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_STEP_SUMMARY": str(files["summary.md"]),
        "GITHUB_OUTPUT": str(files["output.txt"]),
    }
    codes: dict[str, int] = {}
    uploads: list[str] = []
    for step in data["runs"]["steps"]:
        context.update(
            {f"steps.report.outputs.{k}": v for k, v in _outputs(files["output.txt"]).items()}
        )
        if "uses" in step:
            if "upload-artifact" in step["uses"]:
                uploads.append(_substitute(step["with"]["path"], context))
            continue
        step_env = {k: _substitute(str(v), context) for k, v in step.get("env", {}).items()}
        script = _substitute(step["run"], context)
        script_file = tmp / f"{step['id']}.sh"
        script_file.write_text(script)
        done = subprocess.run(  # how the runner starts a `shell: bash` step
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script_file)],
            env={**env, **step_env},
            cwd=values["path"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        codes[step["id"]] = done.returncode
        if done.returncode:
            break
    return {
        "codes": codes,
        "summary": files["summary.md"].read_text(),
        "outputs": _outputs(files["output.txt"]),
        "uploads": uploads,
    }


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A `ctxopt` that runs this checkout, and a `pip` stub that records what it would install."""
    folder = tmp_path / "bin"
    folder.mkdir()
    scripts = {
        "ctxopt": f'#!/bin/sh\nexec "{sys.executable}" -m ctxopt.cli "$@"\n',
        "pip": f'#!/bin/sh\necho "$@" >> "{tmp_path}/pip.log"\n',
    }
    for name, text in scripts.items():
        (folder / name).write_text(text)
        (folder / name).chmod((folder / name).stat().st_mode | stat.S_IEXEC)
    return folder


@pytest.mark.slow
def test_action_steps_on_a_real_repository(tmp_path: Path, bin_dir: Path) -> None:
    repo = sample_repo(tmp_path)
    tasks = (
        "- fix save_inventory when the file is missing\n- task: explain the api\n  budget: 900\n"
    )
    write_files(repo, {".github/ctxopt-tasks.yml": tasks})
    commit_all(repo, "tasks")
    env_repo = {"path": str(repo), "budget": "1500", "model": "gpt-5"}
    passed = run_action({**env_repo, "fail-under": "1"}, tmp_path / "one", bin_dir)
    assert passed["codes"] == {"install": 0, "index": 0, "report": 0, "gate": 0}, passed
    pip_log = (tmp_path / "pip.log").read_text().splitlines()
    assert pip_log[0].endswith("torch==2.13.0")
    assert pip_log[1].endswith(str(ACTION.parent / ".." / ".." / ".."))  # this action's repo
    summary = passed["summary"]
    assert "## ctxopt token report" in summary
    assert "| fix save\\_inventory when the file is missing |" in summary
    assert "| explain the api |" in summary and "gpt-5" in summary
    assert passed["outputs"]["exit-code"] == "0"
    (upload,) = passed["uploads"]
    assert upload == passed["outputs"]["json"] and Path(upload).is_file()
    # the same steps with a gate no pack can meet: the report step still writes the
    # summary and the JSON, and the last step fails with the gate's exit code
    failed = run_action({**env_repo, "fail-under": "99.99"}, tmp_path / "two", bin_dir)
    assert failed["codes"] == {"install": 0, "index": 0, "report": 0, "gate": 1}, failed
    assert failed["outputs"]["exit-code"] == "1"
    assert "### Gates failed" in failed["summary"]
    assert Path(failed["outputs"]["json"]).is_file()


@pytest.mark.slow
def test_action_without_a_tasks_file_and_with_bad_input(tmp_path: Path, bin_dir: Path) -> None:
    repo = sample_repo(tmp_path)
    write_files(repo, {"ctxopt.toml": "budget = 1200\n", "tasks.txt": "explain the api\n"})
    commit_all(repo, "config")
    bare = run_action({"path": str(repo)}, tmp_path / "none", bin_dir)
    assert bare["codes"] == {"install": 0, "index": 0, "report": 0, "gate": 0}, bare
    assert "## ctxopt token report" in bare["summary"] and Path(bare["outputs"]["json"]).is_file()
    # README's example sets fail-under; with no tasks file it failed the job (exit 2: the gate
    # needs tasks) where README promised the index's figures
    gated = run_action({"path": str(repo), "fail-under": "80"}, tmp_path / "gated", bin_dir)
    assert gated["codes"] == {"install": 0, "index": 0, "report": 0, "gate": 0}, gated
    assert gated["outputs"]["exit-code"] == "0" and "## ctxopt token report" in gated["summary"]
    with_tasks = {"path": str(repo), "tasks-file": "tasks.txt"}
    configured = run_action(with_tasks, tmp_path / "cfg", bin_dir)
    report = json.loads(Path(configured["outputs"]["json"]).read_text())
    assert [t["budget"] for t in report["tasks"]] == [1200]  # the repository's own budget
    missing = run_action({"path": str(repo), "tasks-file": "nope.yml"}, tmp_path / "bad", bin_dir)
    assert missing["codes"]["gate"] == 2 and missing["outputs"]["exit-code"] == "2"
    assert "ctxopt stats exited with 2:" in missing["summary"]
    assert "tasks file nope.yml does not exist" in missing["summary"]
    assert "json" not in missing["outputs"]  # no report was written
