"""The Embedder protocol, the embedder names and the helpers every model shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from ctxopt.errors import UsageError

STATIC_NAME = "static-minilm-l6-pca256-v1"
MINILM_NAME = "minilm-l6-v2"
ALIASES = {
    "static": STATIC_NAME,
    STATIC_NAME: STATIC_NAME,
    "minilm": MINILM_NAME,
    MINILM_NAME: MINILM_NAME,
}
DIMENSIONS = {STATIC_NAME: 256, MINILM_NAME: 384}
MAX_EMBED_CHARS = 4000

Notify = Callable[[str], None]


class Embedder(Protocol):
    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalised float32 vectors, one row per text."""
        ...


def canonical_name(name: str) -> str:
    """The stored id of an embedder given a user-facing name ("static", "minilm")."""
    try:
        return ALIASES[name]
    except KeyError:
        choices = ", ".join(sorted(k for k in ALIASES if "-" not in k))
        raise UsageError(f"unknown embedder {name!r}; choose one of: {choices}") from None


def flag_name(stored: str) -> str:
    """The --embedder value that selects a stored embedder id ("minilm" for minilm-l6-v2);
    the id itself for one this ctxopt does not know."""
    return next((k for k, v in ALIASES.items() if v == stored and "-" not in k), stored)


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


def clip(texts: Sequence[str]) -> list[str]:
    """Texts cut to MAX_EMBED_CHARS characters (the models see a few hundred tokens)."""
    return [t[:MAX_EMBED_CHARS] for t in texts]
