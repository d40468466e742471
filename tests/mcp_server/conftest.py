"""Fixtures for the MCP server's tests: real git repos indexed by the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from clitools import run_cli
from helpers import sample_repo


def indexed_copy(tmp: Path) -> Path:
    repo = sample_repo(tmp)
    done = run_cli("index", str(repo), "--quiet")
    assert done.code == 0, done.err
    return repo


@pytest.fixture(scope="module")
def indexed_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample repo indexed once per module (tests that use it leave it unchanged)."""
    return indexed_copy(tmp_path_factory.mktemp("mcp"))


@pytest.fixture
def own_indexed_repo(tmp_path: Path) -> Path:
    """An indexed sample repo for one test, which may change it."""
    return indexed_copy(tmp_path)
