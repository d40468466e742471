"""cl100k token counts through ctxopt.tokens, found in the source tree when not installed."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

SRC_DIR = Path(__file__).resolve().parents[2] / "src"


def _tokens_module() -> ModuleType:
    try:
        from ctxopt import tokens
    except ImportError:
        sys.path.insert(0, str(SRC_DIR))
        from ctxopt import tokens
    return tokens


def count_many(texts: list[str]) -> list[int]:
    """Exact cl100k counts of texts (ctxopt.tokens.count_many)."""
    result: list[int] = _tokens_module().count_many(texts)
    return result
