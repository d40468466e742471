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
from ctxopt.index.file_jobs import ProcessedFile


def worker_embedder(cache_dir: str | None) -> Embedder | None:
    """The static embedder for a worker process (None: the parent embeds).  Its tokenizer
    runs single-threaded there: the workers are the parallelism."""
    if cache_dir is None:
        return None
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    from ctxopt.embed.static import StaticEmbedder

    return StaticEmbedder(Path(cache_dir))


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
