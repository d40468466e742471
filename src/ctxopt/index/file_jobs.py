"""Per-file jobs run in the parser workers: hash, read, chunk, and the line-chunk fallback;
the workers' fork server and watchdog settings."""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ctxopt.languages import TEXT
from ctxopt.types import ChunkedFile, SourceFile


@dataclass(frozen=True)
class ProcessedFile:
    source: SourceFile
    content_hash: str
    chunked: ChunkedFile
    error: str = ""
    vectors: Any = None  # (chunks, dimensions) float32 when a worker embedded the file
    search: tuple[str, ...] = ()  # the full-text column, with vectors


def file_hash(abs_path: str) -> str:
    """sha1 of the file's bytes ("" when it cannot be read)."""
    digest = hashlib.sha1()
    try:
        with open(abs_path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def process_file(source: SourceFile, timeout_s: float) -> ProcessedFile:
    """Hash and chunk one file; never raises (an unreadable file yields no chunks)."""
    from ctxopt.chunking import chunk_file, read_source

    content_hash = file_hash(source.abs_path)
    try:
        text, decode_errors = read_source(source.abs_path)
    except OSError as exc:
        return ProcessedFile(source, content_hash, ChunkedFile(chunks=()), error=str(exc))
    chunked = chunk_file(source.path, text, source.language, timeout_s=timeout_s)
    if decode_errors and not chunked.decode_errors:
        chunked = ChunkedFile(chunked.chunks, chunked.fallback_reason, decode_errors)
    return ProcessedFile(source, content_hash, scan_secrets(chunked))


def scan_secrets(chunked: ChunkedFile) -> ChunkedFile:
    """Each chunk with the secrets found in its text, stored so that outputs redact them."""
    from ctxopt.secrets.chunks import with_secrets

    return with_secrets(chunked)


def watchdog_s(timeout_s: float) -> float:
    """How long one file may take in a worker before it counts as hung: the parse deadline
    plus generous room for chunking and counting a large file on a busy machine."""
    return 3 * timeout_s + HANG_SLACK_S


HANG_SLACK_S = 30.0
BATCH = 16  # files sent to a worker at a time (results come back one by one)


MODEL_CACHE_VARIABLE = "_CTXOPT_WORKER_MODEL_CACHE"  # the fork server's model to preload


def warm_up(model_cache: Path | None = None) -> None:
    """Start the fork server now, so its imports overlap the caller's own start-up; with
    model_cache it also loads the static embedding model kept there (worker_embed)."""
    if model_cache is not None:  # the server is a new interpreter: it reads our environment
        os.environ[MODEL_CACHE_VARIABLE] = str(model_cache)
    with contextlib.suppress(OSError, RuntimeError, ValueError):
        start_server(worker_context())


def fork_server_pid() -> int | None:
    """The running fork server's process id (None before one started)."""
    from multiprocessing import forkserver

    pid = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
    return pid if isinstance(pid, int) else None


def start_server(context: multiprocessing.context.BaseContext) -> None:
    """Start the fork server (if context uses one) ignoring SIGINT: an ignored signal stays
    ignored through exec, so Ctrl-C, which reaches the whole process group, never stops the
    server or its workers (the parent stops them), nor kills one mid-start-up with a fatal
    error.  SIGINT is blocked meanwhile, so one that arrives is delivered to the parent
    once its handler is back (Linux keeps a blocked signal pending even while ignored)."""
    if context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    if threading.current_thread() is not threading.main_thread():
        with _safe_module_path():
            forkserver.ensure_running()  # only the main thread may change signal handlers
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with _safe_module_path():
            forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextlib.contextmanager
def _safe_module_path() -> Iterator[None]:
    """Start the fork server so that it imports nothing from the folder it starts in.

    It runs `python -c ...`, which puts the current folder first on its module path, and
    ctxopt runs in the repository it indexes: that repository's `multiprocessing/` or
    `json.py` would be imported in place of Python's (code from a cloned repository run by
    `ctxopt index`). PYTHONSAFEPATH (Python 3.11+) leaves the folder out; before 3.11 the
    server starts in an empty folder of its own, removed at once."""
    if sys.version_info >= (3, 11):
        saved = os.environ.get(SAFE_PATH)
        os.environ[SAFE_PATH] = "1"
        try:
            yield
        finally:
            if saved is None:
                os.environ.pop(SAFE_PATH, None)
            else:
                os.environ[SAFE_PATH] = saved
        return
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="ctxopt-forkserver-") as empty:
        os.chdir(empty)
        try:
            yield
        finally:
            os.chdir(cwd)


SAFE_PATH = "PYTHONSAFEPATH"


def fallback(source: SourceFile, reason: str) -> ProcessedFile:
    """Line chunks for a file whose parser crashed or hung (read again here, no parser)."""
    from ctxopt.chunking import chunk_file, read_source

    try:
        text, decode_errors = read_source(source.abs_path)
    except OSError as exc:
        return ProcessedFile(source, file_hash(source.abs_path), ChunkedFile(()), error=str(exc))
    fallback = chunk_file(source.path, text, TEXT.name)
    chunked = ChunkedFile(fallback.chunks, reason, decode_errors)
    return ProcessedFile(source, file_hash(source.abs_path), scan_secrets(chunked))


def worker_context() -> multiprocessing.context.BaseContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(
        ["ctxopt.index.fork_server_quiet", "ctxopt.index.worker_preload"]
    )
    return context
