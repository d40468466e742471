"""The default static model: a model2vec distillation of the bundled MiniLM, made once.

It is distilled locally from the all-MiniLM-L6-v2 weights (about 30 s, the first
time) into `<cache dir>/models/<name>`; embedding with it needs only ``tokenizers``
and ``safetensors``, so neither torch nor model2vec is imported at run time.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np

from ctxopt.config.environment import HUGGING_FACE, quiet_library
from ctxopt.embed.base import DIMENSIONS, STATIC_NAME, Notify, clip, normalise
from ctxopt.embed.minilm import minilm_path


class StaticEmbedder:
    """Static embeddings: mean of per-token vectors, no torch and no model2vec at run time."""

    name = STATIC_NAME
    dimensions = DIMENSIONS[STATIC_NAME]
    max_tokens = 512

    def __init__(self, cache_dir: Path, notify: Notify | None = None) -> None:
        self.model_dir = cache_dir / "models" / STATIC_NAME
        self._notify = notify
        self._tokenizer: Any = None
        self._vectors: np.ndarray | None = None
        self._unknown: int | None = None

    def _load(self) -> None:
        if self._vectors is not None:
            return
        if not (self.model_dir / "model.safetensors").exists():
            distill_static(self.model_dir, self._notify)
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self._unknown = self._tokenizer.token_to_id("[UNK]")
        self._vectors = load_file(str(self.model_dir / "model.safetensors"))["embeddings"].astype(
            np.float32
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        self._load()
        assert self._vectors is not None
        encodings = self._tokenizer.encode_batch(clip(texts), add_special_tokens=False)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            ids = [i for i in encoding.ids if i != self._unknown][: self.max_tokens]
            if ids:
                out[row] = self._vectors[ids].mean(axis=0)
        return normalise(out)


def distill_static(target: Path, notify: Notify | None = None) -> None:
    """Distil the static model from the bundled MiniLM into target (atomic, one time)."""
    if notify:
        notify(f"one-time setup: distilling the static embedding model into {target} (~30 s)")
    quiet_library(HUGGING_FACE)
    from model2vec.distill import distill

    target.parent.mkdir(parents=True, exist_ok=True)
    with open(os.devnull, "w") as sink, redirect_stdout(sink), redirect_stderr(sink):
        model = distill(model_name=minilm_path(), pca_dims=DIMENSIONS[STATIC_NAME])
    staging = Path(tempfile.mkdtemp(prefix=".distill-", dir=target.parent))
    try:
        model.save_pretrained(str(staging))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
