"""The LLM table: context windows, prices, tiers, and the model a pack is best sent to.

The table ships as ``ctxopt/data/models.json``.  A user file (``override``: the
``models_file`` setting, from a config file or ``$CTXOPT_MODELS_FILE``) replaces fields
of entries by name and adds new names.  ``token_factor`` approximates how many of the
model's own tokens one cl100k token of code becomes (1.0 for OpenAI models; about 1.2 for
Claude, 1.1 for Gemini and Llama, 1.05 for Qwen and DeepSeek).  They are estimates, not measurements
of each tokenizer, so budgets derived from them keep a margin.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

from ctxopt.config.environment import MODELS_FILE
from ctxopt.errors import UsageError
from ctxopt.pack.model_names import match_model_name
from ctxopt.types import ModelInfo, Recommendation, Tier

TIERS: tuple[Tier, ...] = ("local", "cheap", "balanced", "top")

# Phase-6 thresholds: packed cl100k tokens and task complexity in [0, 1].
LOCAL_MAX_TOKENS = 8_000
LOCAL_MAX_COMPLEXITY = 0.3
CHEAP_MAX_TOKENS = 20_000
CHEAP_MAX_COMPLEXITY = 0.5
TOP_MIN_TOKENS = 100_000
TOP_MIN_COMPLEXITY = 0.8
DEFAULT_RESERVE = 0.2  # share of the window kept for instructions and the answer
# Savings are priced at this model when none is named: the recommended model may be a
# local one, whose price of 0 made every `cost_saved` 0.0.
DEFAULT_PRICE_MODEL = "claude-sonnet-4-5"
BUILTIN_SOURCE = "ctxopt/data/models.json"


@dataclass(frozen=True)
class PriceSource:
    """Where the prices come from and the day they were checked (shown with every cost)."""

    date: str  # YYYY-MM-DD
    source: str  # the built-in table, or the override file over it


_REQUIRED = (
    "name",
    "family",
    "context_window",
    "max_output",
    "input_price",
    "output_price",
    "tier",
)


def _model_from(entry: dict[str, Any], source: str) -> ModelInfo:
    missing = [key for key in _REQUIRED if key not in entry]
    if missing:
        raise UsageError(f"{source}: model {entry.get('name', '?')!r} lacks {', '.join(missing)}")
    known = {f.name for f in fields(ModelInfo)}
    values = {key: value for key, value in entry.items() if key in known}
    values["aliases"] = tuple(values.get("aliases", ()))
    try:
        model = ModelInfo(**values)
        checks = (
            model.tier in TIERS,
            int(model.context_window) > 0,
            float(model.token_factor) > 0,
            float(model.input_price) >= 0 and float(model.output_price) >= 0,
        )
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{source}: model {entry.get('name')!r}: {exc}") from exc
    if not all(checks):
        raise UsageError(
            f"{source}: model {model.name!r} needs tier in {TIERS}, a positive "
            "context_window and token_factor, and prices >= 0"
        )
    return model


def _entries(data: Any, source: str) -> list[dict[str, Any]]:
    items = data.get("models") if isinstance(data, dict) else data
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise UsageError(f"{source}: expected a list of model objects or {{'models': [...]}}")
    return items


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read models file {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise UsageError(f"models file {path} is not valid JSON: {exc}") from exc


def _builtin_data() -> Any:
    text = resources.files("ctxopt").joinpath("data/models.json").read_text(encoding="utf-8")
    return json.loads(text)


def _builtin() -> list[dict[str, Any]]:
    return _entries(_builtin_data(), BUILTIN_SOURCE)


def price_source(override: Path | None = None) -> PriceSource:
    """The prices' date and origin: the override file's `prices_date` when it gives one."""
    builtin_date = str(_builtin_data().get("prices_date", "unknown"))
    path = override
    if path is None:
        return PriceSource(builtin_date, BUILTIN_SOURCE)
    data = _read_json(path)
    date = data.get("prices_date") if isinstance(data, dict) else None
    if date:
        return PriceSource(str(date), f"{path} over {BUILTIN_SOURCE}")
    return PriceSource(builtin_date, f"{BUILTIN_SOURCE} with entries from {path} (undated)")


def price_model(name: str | None, models: dict[str, ModelInfo]) -> ModelInfo:
    """The model costs are priced at: the one named, else DEFAULT_PRICE_MODEL."""
    return find_model(name or DEFAULT_PRICE_MODEL, models)


def load_models(override: Path | None = None) -> dict[str, ModelInfo]:
    """The model table by name: built-in entries, then those of override (Settings.models_file,
    from a config file or $CTXOPT_MODELS_FILE) laid over them by name."""
    raw: dict[str, dict[str, Any]] = {e["name"]: dict(e) for e in _builtin()}
    path = override
    if path is not None:
        for entry in _entries(_read_json(path), str(path)):
            if "name" not in entry:
                raise UsageError(f"{path}: every model needs a 'name'")
            raw[entry["name"]] = {**raw.get(entry["name"], {}), **entry}
    source = str(path) if path else BUILTIN_SOURCE
    return {name: _model_from(entry, source) for name, entry in sorted(raw.items())}


def find_model(name: str, models: dict[str, ModelInfo]) -> ModelInfo:
    """A model by name or alias in any case, separators ignored, or a unique prefix
    (pack/model_names.py); a UsageError listing every model the name could mean."""
    hint = f" (add it with a JSON file in ${MODELS_FILE})"
    return models[match_model_name(name, models, hint)]


def budget_for_model(model: ModelInfo, reserve: float = DEFAULT_RESERVE) -> int:
    """cl100k tokens that fit in the window after reserving a share for the answer."""
    if not 0 <= reserve < 1:
        raise UsageError(f"reserve must be in [0, 1), got {reserve}")
    return math.floor(model.context_window * (1 - reserve) / model.token_factor)


def estimate_cost(tokens: int, model: ModelInfo) -> float:
    """USD for sending tokens (cl100k) as input to model."""
    return tokens * model.token_factor * model.input_price / 1_000_000


def _wanted_tier(tokens: int, complexity: float) -> tuple[Tier, str]:
    if tokens < LOCAL_MAX_TOKENS and complexity < LOCAL_MAX_COMPLEXITY:
        why = f"under {LOCAL_MAX_TOKENS:,} tokens and complexity below {LOCAL_MAX_COMPLEXITY}"
        return "local", why
    if tokens < CHEAP_MAX_TOKENS and complexity < CHEAP_MAX_COMPLEXITY:
        why = f"under {CHEAP_MAX_TOKENS:,} tokens and complexity below {CHEAP_MAX_COMPLEXITY}"
        return "cheap", why
    if tokens >= TOP_MIN_TOKENS or complexity >= TOP_MIN_COMPLEXITY:
        why = f"at least {TOP_MIN_TOKENS:,} tokens or complexity of {TOP_MIN_COMPLEXITY}+"
        return "top", why
    return "balanced", "a mid-sized, mid-complexity task"


def _cheapest_fit(
    tokens: int, tier: Tier, models: dict[str, ModelInfo], reserve: float
) -> ModelInfo | None:
    fits = [m for m in models.values() if m.tier == tier and budget_for_model(m, reserve) >= tokens]
    return min(fits, key=lambda m: (m.input_price * m.token_factor, m.name), default=None)


def recommend_model(
    packed_tokens: int,
    complexity: float,
    models: dict[str, ModelInfo],
    *,
    allow_local: bool = True,
    reserve: float = DEFAULT_RESERVE,
) -> Recommendation:
    """The cheapest model of the tier the pack's size and complexity call for.

    A tier with no model whose window holds the pack escalates to the next tier.
    """
    if not models:
        raise UsageError("the model table is empty")
    complexity = min(max(complexity, 0.0), 1.0)
    tier, why = _wanted_tier(packed_tokens, complexity)
    if tier == "local" and not allow_local:
        tier, why = "cheap", why + " (local models disabled)"
    for candidate in TIERS[TIERS.index(tier) :]:
        model = _cheapest_fit(packed_tokens, candidate, models, reserve)
        if model is not None:
            if model.tier != tier:
                why += f"; no {tier} model's window holds it, so escalated to {model.tier}"
            break
    else:
        model = max(models.values(), key=lambda m: (budget_for_model(m, reserve), m.name))
        why += "; no model's window holds the pack, so the largest window is chosen"
    cost = estimate_cost(packed_tokens, model)
    reasoning = (
        f"{packed_tokens:,} tokens at complexity {complexity:.2f}: {why}. "
        f"{model.name} holds {budget_for_model(model, reserve):,} cl100k tokens "
        f"(window {model.context_window:,}, {reserve:.0%} reserved, factor "
        f"{model.token_factor}) and costs ${cost:.4f} for this input."
    )
    return Recommendation(model, model.tier, reasoning, cost)
