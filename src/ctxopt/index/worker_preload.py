"""Imported once by the parser workers' fork server: the chunkers, the token counter
and the static embedder's code (numpy included) are loaded there, and every worker forked
from it starts with them in memory.  The server starts while the parent loads the indexer
and plans the run, so these imports stay off a small run's critical path."""

from __future__ import annotations

import contextlib
import importlib

import ctxopt.chunking  # noqa: F401  (the import is the point)
from ctxopt import tokens

with contextlib.suppress(Exception):  # a worker loads it itself if this fails
    tokens.count("load the counter (tiktoken's tables without the fast one) before forking")

with contextlib.suppress(Exception):  # the same: a worker that embeds imports and loads it then
    importlib.import_module("ctxopt.index.worker_embed").preload_model()
