"""scripts/make_synthetic_repo.py: the same seed makes the same repository, in every
language it claims, and the languages ctxopt detects are those."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from ctxopt.languages import detect_language

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "make_synthetic_repo.py"


def make(target: Path, lines: int, seed: int = 16) -> dict[str, object]:
    command = [sys.executable, str(SCRIPT), str(target), "--lines", str(lines)]
    done = subprocess.run(
        [*command, "--seed", str(seed), "--json"], capture_output=True, text=True, check=True
    )
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def test_same_seed_same_repository_other_seed_other_one(tmp_path: Path) -> None:
    first = make(tmp_path / "a", 12_000)
    again = make(tmp_path / "b", 12_000)
    make(tmp_path / "c", 12_000, seed=17)
    assert first == again
    assert git(tmp_path / "a", "rev-parse", "HEAD") == git(tmp_path / "b", "rev-parse", "HEAD")
    assert git(tmp_path / "a", "rev-parse", "HEAD") != git(tmp_path / "c", "rev-parse", "HEAD")
    assert git(tmp_path / "a", "rev-list", "--count", "HEAD").strip() == "3"
    assert not git(tmp_path / "a", "status", "--porcelain")


def test_the_languages_and_lines_it_claims(tmp_path: Path) -> None:
    summary = make(tmp_path / "repo", 30_000)
    listed = git(tmp_path / "repo", "ls-files").split()
    lines = sum((tmp_path / "repo" / p).read_text().count("\n") for p in listed)
    assert summary["files"] == len(listed)
    assert summary["lines"] == lines >= 30_000
    languages = Counter(detect_language(p) for p in listed)
    code = {"python", "typescript", "go", "java", "rust"}
    assert code <= set(languages)
    assert {"markdown", "yaml", "toml", "json"} <= set(languages)
    assert any("/tests/test_" in p for p in listed) and any(p.endswith("_test.go") for p in listed)
    assert sum(languages[name] for name in code) > 0.8 * len(listed)
