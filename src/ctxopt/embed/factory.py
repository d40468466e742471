"""Building embedders by name: one per model and cache folder, reused across calls.

``static`` (the default, embed/static.py) and ``minilm`` (embed/minilm.py) embed
chunks at index time.  A query embeds one task with `task_encoder`: the static
model as at index time, or MiniLM through numpy (embed/minilm_numpy.py), never torch.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

from ctxopt.embed.base import MINILM_NAME, STATIC_NAME, Embedder, Notify, canonical_name


@lru_cache(maxsize=4)
def _cached(name: str, cache_dir: Path) -> Embedder:
    if name == STATIC_NAME:
        from ctxopt.embed.static import StaticEmbedder

        return StaticEmbedder(cache_dir)
    from ctxopt.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


def get_embedder(name: str, *, cache_dir: Path, notify: Notify | None = None) -> Embedder:
    """Build (or reuse) the embedder for a user-facing or stored name; cache_dir holds
    distilled models (Settings.model_cache)."""
    embedder = _cached(canonical_name(name), cache_dir)
    if notify is not None:
        embedder._notify = notify  # type: ignore[attr-defined]
    return embedder


@lru_cache(maxsize=2)
def task_encoder(name: str, cache_dir: Path) -> Callable[[str], np.ndarray]:
    """One text's vector for the query path, torch-free: the static model as at index time,
    or the MiniLM transformer through numpy (same vectors as sentence-transformers')."""
    canonical = canonical_name(name)
    if canonical == MINILM_NAME:
        from ctxopt.embed.minilm import minilm_path
        from ctxopt.embed.minilm_numpy import NumpyMiniLM

        return NumpyMiniLM(Path(minilm_path())).encode_one
    embedder = get_embedder(canonical, cache_dir=cache_dir)
    return lambda text: embedder.embed([text])[0]
