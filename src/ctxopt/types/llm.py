"""Records of the LLM table: a model's window, prices and tier, and the model a pack suits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Tier = Literal["local", "cheap", "balanced", "top"]


@dataclass(frozen=True)
class ModelInfo:
    name: str
    family: str
    context_window: int  # tokens of the model's own tokenizer
    max_output: int
    input_price: float  # USD per million input tokens; 0 for local
    output_price: float  # USD per million output tokens; 0 for local
    tier: Tier
    token_factor: float = 1.0  # model tokens per cl100k token (approximate)
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recommendation:
    model: ModelInfo
    tier: Tier
    reasoning: str
    estimated_cost: float  # USD for the packed input
