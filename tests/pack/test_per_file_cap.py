"""The cap on chunks per file grows with the budget unless the user set it."""

from __future__ import annotations

from pathlib import Path

from ctxopt.config.settings import load_settings
from ctxopt.pack.api import CAP_TOKENS, per_file_cap


def test_the_default_cap_is_eight_and_grows_with_a_large_budget(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, env={})
    assert per_file_cap(settings, 4000) == per_file_cap(settings, 8000) == 8
    assert per_file_cap(settings, 16000) == 16000 // CAP_TOKENS > 8
    assert per_file_cap(settings, 64000) > per_file_cap(settings, 16000)


def test_a_cap_the_user_sets_is_kept_at_any_budget(tmp_path: Path) -> None:
    flag = load_settings(tmp_path, {"max_chunks_per_file": 5}, env={})
    assert per_file_cap(flag, 16000) == 5
    (tmp_path / "ctxopt.toml").write_text("max_chunks_per_file = 8\n", encoding="utf-8")
    configured = load_settings(tmp_path, env={})
    assert per_file_cap(configured, 16000) == 8
