"""Reading, hashing and chunking files, in worker processes when there are many."""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ctxopt.languages import TEXT
from ctxopt.types import ChunkedFile, SourceFile

POOL_THRESHOLD = 64


@dataclass(frozen=True)
class ProcessedFile:
    source: SourceFile
    content_hash: str
    chunked: ChunkedFile
    error: str = ""


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


def _process_star(args: tuple[SourceFile, float]) -> ProcessedFile:
    return process_file(*args)


def process_files(
    sources: Sequence[SourceFile], timeout_s: float, workers: int
) -> Iterator[ProcessedFile]:
    """Process files in order, in worker processes when there are many and workers > 1.

    A worker that dies (a parser crashing on a hostile file) costs only its files:
    the rest go on in a new pool, and each file of the lost batch is retried alone,
    falling back to line chunks if it kills its worker again.  When no worker can start
    at all (a caller's script without a main guard, a sandbox without process support),
    the files are processed in this process instead of all falling back to line chunks.
    """
    if workers <= 1 or len(sources) < POOL_THRESHOLD:
        for source in sources:
            yield process_file(source, timeout_s)
        return
    done = 0
    while done < len(sources):
        try:
            for result in _pool_map(sources[done:], timeout_s, workers):
                yield result
                done += 1
        except BrokenProcessPool:
            if not _pool_starts():
                for source in sources[done:]:
                    yield process_file(source, timeout_s)
                return
            for source in sources[done : done + BATCH]:
                yield _isolated(source, timeout_s)
                done += 1


BATCH = 16  # files a worker takes at a time


def _pool_map(
    sources: Sequence[SourceFile], timeout_s: float, workers: int
) -> Iterator[ProcessedFile]:
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        jobs = ((source, timeout_s) for source in sources)
        yield from pool.map(_process_star, jobs, chunksize=BATCH)


def _pool_starts() -> bool:
    """Whether a worker process can start and answer at all."""
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=_context()) as pool:
            return bool(pool.submit(abs, -1).result() == 1)
    except (BrokenProcessPool, OSError, RuntimeError):
        return False


def _isolated(source: SourceFile, timeout_s: float) -> ProcessedFile:
    """One file in a worker of its own; line chunks if the parser kills that worker too."""
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=_context()) as pool:
            return pool.submit(_process_star, (source, timeout_s)).result()
    except BrokenProcessPool:
        from ctxopt.chunking import chunk_file, read_source

        text, decode_errors = read_source(source.abs_path)
        fallback = chunk_file(source.path, text, TEXT.name, timeout_s=timeout_s)
        chunked = ChunkedFile(fallback.chunks, "parser crashed", decode_errors)
        return ProcessedFile(source, file_hash(source.abs_path), scan_secrets(chunked))


def _context() -> multiprocessing.context.BaseContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["ctxopt.chunking", "ctxopt.tokens"])
    return context
