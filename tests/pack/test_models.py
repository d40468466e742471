"""The model table: loading, overrides, lookup, budgets and recommendations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ctxopt.config.environment import MODELS_FILE
from ctxopt.config.settings import load_settings
from ctxopt.errors import UsageError
from ctxopt.pack.api import PackOptions, resolve_budget
from ctxopt.pack.models import (
    CHEAP_MAX_COMPLEXITY,
    CHEAP_MAX_TOKENS,
    LOCAL_MAX_COMPLEXITY,
    LOCAL_MAX_TOKENS,
    TOP_MIN_COMPLEXITY,
    TOP_MIN_TOKENS,
    budget_for_model,
    estimate_cost,
    find_model,
    load_models,
    recommend_model,
)
from ctxopt.types import ModelInfo


@pytest.fixture()
def models(monkeypatch: pytest.MonkeyPatch) -> dict[str, ModelInfo]:
    monkeypatch.delenv(MODELS_FILE, raising=False)
    return load_models()


def test_builtin_table_covers_the_families(models: dict[str, ModelInfo]) -> None:
    families = {m.family for m in models.values()}
    assert {"claude", "gpt", "o-series", "gemini", "llama", "qwen", "deepseek"} <= families
    assert {m.tier for m in models.values()} == {"local", "cheap", "balanced", "top"}
    for model in models.values():
        assert model.context_window > 0 and model.token_factor >= 1.0
        assert (model.input_price == 0) == (model.tier == "local")
    assert models["gpt-4o-mini"].token_factor == 1.0
    assert 1.15 <= models["claude-sonnet-4-5"].token_factor <= 1.2


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "models.json"
    path.write_text(json.dumps(data))
    return path


def test_override_replaces_by_name_and_adds(tmp_path: Path, models: dict[str, ModelInfo]) -> None:
    new = {
        "name": "my-model", "family": "custom", "context_window": 50_000, "max_output": 4_000,
        "input_price": 0.5, "output_price": 1.0, "tier": "cheap", "aliases": ["mine"],
    }  # fmt: skip
    path = _write(tmp_path, {"models": [{"name": "gpt-4.1", "input_price": 9.0}, new]})
    loaded = load_models(path)
    assert loaded["gpt-4.1"].input_price == 9.0
    assert loaded["gpt-4.1"].context_window == models["gpt-4.1"].context_window
    assert find_model("mine", loaded).name == "my-model"
    assert len(loaded) == len(models) + 1


def test_env_file_is_read_as_a_setting(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"name": "o3", "tier": "balanced"}])
    settings = load_settings(tmp_path, env={MODELS_FILE: str(path)})
    assert settings.models_file == path
    assert settings.source("models_file") == f"env:{MODELS_FILE}"
    assert load_models(settings.models_file)["o3"].tier == "balanced"
    assert load_models()["o3"].tier != "balanced"  # the library reads no environment


def test_bad_override_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="lacks"):
        load_models(_write(tmp_path, [{"name": "half", "tier": "cheap"}]))
    with pytest.raises(UsageError, match="tier"):
        load_models(_write(tmp_path, [{"name": "o3", "tier": "premium"}]))
    with pytest.raises(UsageError, match="not valid JSON"):
        bad = tmp_path / "bad.json"
        bad.write_text("{")
        load_models(bad)


def test_find_model_by_name_alias_and_prefix(models: dict[str, ModelInfo]) -> None:
    assert find_model("gpt-4.1", models).name == "gpt-4.1"
    assert find_model("SONNET", models).name == "claude-sonnet-4-5"
    assert find_model("ollama:qwen2.5-coder:7", models).name == "ollama:qwen2.5-coder:7b"
    assert find_model("gemini-3", models).name == "gemini-3-pro-preview"


def test_unknown_and_ambiguous_names(models: dict[str, ModelInfo]) -> None:
    with pytest.raises(UsageError, match=r"unknown model 'gtp-5'.*close names: gpt-5"):
        find_model("gtp-5", models)
    with pytest.raises(UsageError) as far:  # shares two letters with `opus`: not close
        find_model("nope", models)
    assert "close names" not in str(far.value)
    with pytest.raises(UsageError, match=r"ambiguous.*gemini-2\.5-flash.*gemini-2\.5-pro"):
        find_model("gemini-2.5", models)


def test_budget_math(models: dict[str, ModelInfo]) -> None:
    claude = models["claude-sonnet-4-5"]
    assert budget_for_model(claude, 0.2) == int(200_000 * 0.8 / 1.2) == 133_333
    assert budget_for_model(models["gpt-5"], 0.0) == 400_000
    with pytest.raises(UsageError):
        budget_for_model(claude, 1.0)


def test_a_budget_of_any_size_is_counted_exactly(models: dict[str, ModelInfo]) -> None:
    huge = 99_999_999_999_999_999_999
    assert resolve_budget(PackOptions(task="x", budget=huge), models)[:2] == (huge, huge)
    at_claude = resolve_budget(
        PackOptions(task="x", budget=huge, model="claude-sonnet-4-5"), models
    )
    assert at_claude[:2] == (huge * 5 // 6, huge)  # 1.2 model tokens per cl100k token
    assert (
        resolve_budget(PackOptions(task="x", budget=120, model="claude-sonnet-4-5"), models)[0]
        == 100
    )


def test_estimate_cost(models: dict[str, ModelInfo]) -> None:
    assert estimate_cost(1_000_000, models["gpt-4.1"]) == pytest.approx(2.0)
    assert estimate_cost(1_000_000, models["claude-opus-4-1"]) == pytest.approx(15.0 * 1.2)
    assert estimate_cost(10_000, models["ollama:qwen2.5-coder:7b"]) == 0.0


def test_recommendation_tiers_at_boundaries(models: dict[str, ModelInfo]) -> None:
    def tier(tokens: int, complexity: float, **kw: bool) -> str:
        return recommend_model(tokens, complexity, models, **kw).tier

    assert tier(LOCAL_MAX_TOKENS - 1, LOCAL_MAX_COMPLEXITY - 0.01) == "local"
    assert tier(LOCAL_MAX_TOKENS, LOCAL_MAX_COMPLEXITY - 0.01) == "cheap"
    assert tier(100, LOCAL_MAX_COMPLEXITY) == "cheap"
    assert tier(100, 0.0, allow_local=False) == "cheap"
    assert tier(CHEAP_MAX_TOKENS - 1, CHEAP_MAX_COMPLEXITY - 0.01) == "cheap"
    assert tier(CHEAP_MAX_TOKENS, 0.1) == "balanced"
    assert tier(1_000, CHEAP_MAX_COMPLEXITY) == "balanced"
    assert tier(TOP_MIN_TOKENS - 1, TOP_MIN_COMPLEXITY - 0.01) == "balanced"
    assert tier(TOP_MIN_TOKENS, 0.1) == "top"
    assert tier(1_000, TOP_MIN_COMPLEXITY) == "top"


def test_recommendation_fits_the_window_and_explains(models: dict[str, ModelInfo]) -> None:
    rec = recommend_model(500_000, 0.9, models)
    assert budget_for_model(rec.model, 0.2) >= 500_000
    assert rec.tier == "top" and rec.model.name == "gemini-2.5-pro"
    assert "500,000 tokens" in rec.reasoning and "0.90" in rec.reasoning
    assert rec.estimated_cost == pytest.approx(estimate_cost(500_000, rec.model))


def test_small_tier_escalates_when_the_window_is_too_small() -> None:
    tiny = ModelInfo("tiny", "x", 1_000, 100, 0.0, 0.0, "local")
    big = ModelInfo("big", "x", 100_000, 100, 1.0, 2.0, "cheap")
    rec = recommend_model(5_000, 0.1, {"tiny": tiny, "big": big})
    assert rec.model.name == "big" and "escalated to cheap" in rec.reasoning


def test_recommendation_over_every_window(models: dict[str, ModelInfo]) -> None:
    rec = recommend_model(5_000_000, 0.5, models)
    assert "largest window" in rec.reasoning
    best = max(budget_for_model(m, 0.2) for m in models.values())
    assert budget_for_model(rec.model, 0.2) == best


def test_names_in_any_case_without_separators_and_aliases(models: dict[str, ModelInfo]) -> None:
    assert find_model("GPT4o", models).name == "gpt-4o"
    assert find_model("claude sonnet 4.5", models).name == "claude-sonnet-4-5"
    assert find_model("Opus", models).name == "claude-opus-4-1"
    with pytest.raises(UsageError) as caught:
        find_model("gpt-4", models)
    for name in ("gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini"):
        assert re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", str(caught.value))
