"""analyze-doc tests: the fake LLM script, small documents, and this folder on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

FAKE_LLM = HERE / "fake_llm.py"


@pytest.fixture
def fake_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake LLM's log file, set in the environment; returns the log's path."""
    log = tmp_path / "fake-llm.jsonl"
    monkeypatch.setenv("FAKE_LLM_LOG", str(log))
    monkeypatch.delenv("FAKE_LLM_MODE", raising=False)
    return log
