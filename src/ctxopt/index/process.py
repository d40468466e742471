"""Reading, hashing and chunking files, in worker processes when there are many."""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

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
    return ProcessedFile(source, content_hash, chunked)


def _process_star(args: tuple[SourceFile, float]) -> ProcessedFile:
    return process_file(*args)


def process_files(
    sources: Sequence[SourceFile], timeout_s: float, workers: int
) -> Iterator[ProcessedFile]:
    """Process files in order, on a fork pool when there are many and workers > 1."""
    if workers <= 1 or len(sources) < POOL_THRESHOLD:
        for source in sources:
            yield process_file(source, timeout_s)
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["ctxopt.chunking", "ctxopt.tokens"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        jobs = ((source, timeout_s) for source in sources)
        yield from pool.map(_process_star, jobs, chunksize=16)
