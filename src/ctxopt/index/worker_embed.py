"""The embedding half of a worker's job: a processed file's vectors and full-text column.

With the default static model every worker embeds the files it chunked, so embedding runs
in parallel with the parse and the parent only gathers rows and writes them.  Other
embedders (MiniLM loads torch; test fakes live in the parent) stay in the parent.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np

from ctxopt.embed.base import Embedder
from ctxopt.index import schema
from ctxopt.index.file_jobs import MODEL_CACHE_VARIABLE, ProcessedFile

_preloaded: dict[str, Embedder] = {}


def worker_embedder(cache_dir: str | None) -> Embedder | None:
    """The static embedder for a worker process (None: the parent embeds).  Its tokenizer
    runs single-threaded there: the workers are the parallelism.  The one the fork server
    loaded (preload_model) is used when it comes from the same cache."""
    if cache_dir is None:
        return None
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    if str(Path(cache_dir)) in _preloaded:
        return _preloaded[str(Path(cache_dir))]
    from ctxopt.embed.static import StaticEmbedder

    return StaticEmbedder(Path(cache_dir))


def preload_model() -> None:
    """In the fork server: load the static model of the cache the parent named (in
    MODEL_CACHE_VARIABLE), so that every worker forked from it starts with the model in
    memory instead of reading it on its first file.  A model not made yet is left to the
    parent, which makes it before any worker embeds (shared_cache_dir)."""
    cache_dir = os.environ.get(MODEL_CACHE_VARIABLE)
    if not cache_dir:
        return
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    from ctxopt.embed.static import StaticEmbedder

    embedder = StaticEmbedder(Path(cache_dir))
    if (embedder.model_dir / "model.safetensors").exists():
        embedder.embed(["load the model before the workers fork"])
        _preloaded[str(Path(cache_dir))] = embedder


def shared_cache_dir(embedder: Embedder) -> str | None:
    """The model cache a worker loads the same embedder from, when it can (static only);
    the model is made here first so that workers never distil it side by side."""
    from ctxopt.embed.static import StaticEmbedder

    if type(embedder) is not StaticEmbedder:
        return None
    if not (embedder.model_dir / "model.safetensors").exists():
        embedder.embed(["distil the model once, here"])
    return str(embedder.model_dir.parent.parent)


def embed_file(done: ProcessedFile, embedder: Embedder) -> ProcessedFile:
    """The file with its chunks' vectors and search texts (one row per chunk)."""
    chunks = done.chunked.chunks
    if not chunks:
        vectors = np.zeros((0, embedder.dimensions), dtype=np.float32)
        return replace(done, vectors=vectors, search=())
    vectors = embedder.embed([schema.embed_text(c) for c in chunks])
    return replace(done, vectors=vectors, search=tuple(schema.search_text(c) for c in chunks))
