"""Test isolation: no colour, fixed width, a temporary config home; shared cache for models."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
    for name in list(__import__("os").environ):
        if name.startswith("CTXOPT_") and name not in ("CTXOPT_CACHE_DIR", "CTXOPT_UPDATE_GOLDEN"):
            monkeypatch.delenv(name, raising=False)
