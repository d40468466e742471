"""Imported once by the parser workers' fork server: the chunkers and the tokenizer's
tables are loaded there, and every worker forked from it starts with them in memory."""

from __future__ import annotations

import contextlib

import ctxopt.chunking  # noqa: F401  (the import is the point)
from ctxopt import tokens

with contextlib.suppress(Exception):  # a worker loads it itself if this fails
    tokens.encoding()
