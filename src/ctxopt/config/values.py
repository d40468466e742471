"""Setting values: checks that clean a value or say what is wrong, and environment parsing.

Each check returns the clean value or raises ValueError with a reason; `config` turns the
reason into one line naming the layer the value came from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

EMBEDDERS = ("static", "minilm")
COMPRESSIONS = ("none", "light", "medium", "aggressive")
FORMATS = ("markdown", "xml", "plain")
LIST_FIELDS = ("include", "exclude")
# the retrieval factors a [weights] table may set (retrieve/scoring.py's DEFAULT_WEIGHTS)
WEIGHT_NAMES = (
    "fused", "lexical", "window", "semantic", "symbol", "proximity", "location",
    "dependency", "recency", "centrality", "type", "language", "history",
)  # fmt: skip
MAX_RESERVE = 0.9


def _string(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("must be a non-empty string")
    return value


def _choice(options: tuple[str, ...]) -> Callable[[object], str]:
    """One of options, in any case and with spaces around ignored (`XML`, ` Medium`)."""

    def check(value: object) -> str:
        folded = value.strip().lower() if isinstance(value, str) else value
        if folded not in options:
            raise ValueError(f"must be one of {', '.join(options)} (any case)")
        return str(folded)

    return check


def _int(low: int) -> Callable[[object], int]:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"must be an integer >= {low}")
        return value

    return check


def _float(
    low: float, high: float = math.inf, *, open_low: bool = False
) -> Callable[[object], float]:
    def check(value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("must be a number")
        number = float(value)
        too_low = number <= low if open_low else number < low
        if too_low or number > high or not math.isfinite(number):
            bounds = f"> {low:g}" if open_low else f"in [{low:g}, {high:g}]"
            raise ValueError(f"must be a number {bounds}")
        return number

    return check


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ValueError("must be a list of strings")
    if not all(isinstance(item, str) and item for item in value):
        raise ValueError("must be a list of non-empty strings")
    return tuple(value)


def _weights(value: object) -> tuple[tuple[str, float], ...]:
    if not isinstance(value, Mapping):
        raise ValueError("must be a table of name = number")
    number = _float(0.0)
    try:
        return tuple(sorted((str(k), number(v)) for k, v in value.items()))
    except ValueError:
        raise ValueError("must map names to numbers of 0 or more") from None


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _optional_string(value: object) -> str | None:
    return None if value == "" else _string(value)


def _optional_path(value: object) -> Path | None:
    if isinstance(value, Path):
        return value
    text = _optional_string(value)
    return Path(text).expanduser() if text else None


CHECKS: dict[str, Callable[[object], Any]] = {
    "db": _string,  # a Path or an object-store URI, by settings._db_path
    "include": _strings,
    "exclude": _strings,
    "max_file_bytes": _int(1),
    "embedder": _choice(EMBEDDERS),
    "parse_timeout": _float(0.0, open_low=True),
    "budget": _int(1),
    "model": _optional_string,
    "reserve": _float(0.0, MAX_RESERVE),
    "compression": _choice(COMPRESSIONS),
    "format": _choice(FORMATS),
    "max_chunks_per_file": _int(1),
    "top_k": _int(1),
    "cache_dir": _optional_path,
    "models_file": _optional_path,
    "weights": _weights,
    "allow_secrets": _bool,
    "displace_capped": _bool,
    "path_entries": _bool,
    "history_commits": _int(0),
    "auto_tune": _bool,
    "rerank": _bool,
}
INT_FIELDS = frozenset(
    {"max_file_bytes", "budget", "max_chunks_per_file", "top_k", "history_commits"}
)
FLOAT_FIELDS = frozenset({"parse_timeout", "reserve"})
BOOL_FIELDS: frozenset[str] = frozenset(
    {"allow_secrets", "displace_capped", "path_entries", "auto_tune", "rerank"}
)


def parse_env(name: str, text: str) -> object:
    """An environment string read as the field's type."""
    if name in LIST_FIELDS:
        return tuple(part.strip() for part in text.split(",") if part.strip())
    if name == "weights":
        return _parse_weights(text)
    if name in INT_FIELDS:
        return int(text.strip())
    if name in FLOAT_FIELDS:
        return float(text.strip())
    if name in BOOL_FIELDS:
        return _parse_bool(text)
    return text.strip()


def _parse_weights(text: str) -> dict[str, float]:
    weights: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, number = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"expected name=number, got {part!r}")
        weights[key.strip()] = float(number)
    return weights


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"expected true or false, got {text!r}")
