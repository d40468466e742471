"""End-to-end fixtures: the real CLI in a subprocess, the real default model, real git repos."""

from __future__ import annotations

from pathlib import Path

import pytest

from clitools import CliRunner, run_cli
from helpers import sample_repo


@pytest.fixture
def cli() -> CliRunner:
    return run_cli


@pytest.fixture(scope="module")
def indexed_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample repo, indexed once per module with the real default embedder."""
    repo = sample_repo(tmp_path_factory.mktemp("e2e"))
    result = run_cli("index", str(repo), "--quiet")
    assert result.code == 0, result.err
    return repo
