"""Reading, hashing and chunking files, every parse isolated in a worker process."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from ctxopt.index.file_jobs import ProcessedFile, file_hash, process_file, warm_up
from ctxopt.index.shards import make_shards
from ctxopt.index.workers import WorkerPool
from ctxopt.types import SourceFile

__all__ = [
    "ProcessedFile",
    "default_workers",
    "file_hash",
    "process_file",
    "process_sharded",
    "warm_up",
]


IN_PROCESS = 0  # workers=0: parse in this process (tests and tools; no isolation from a grammar)


def default_workers() -> int:
    """The processors this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def process_sharded(
    sources: Sequence[SourceFile],
    timeout_s: float,
    workers: int,
    *,
    embed_cache: str | None = None,
) -> Iterator[ProcessedFile]:
    """Process files in order, split into token-sized shards over up to `workers` worker
    processes (never more than there are shards); with embed_cache the workers embed too
    (their results carry vectors).  Every parse runs in a worker, one worker included, so a
    grammar that crashes or hangs costs only its file: it falls back to line chunks, its
    worker is replaced and the others go on.  When no worker can start at all (a caller's
    script without a main guard, a sandbox without process support) the files are processed
    here; workers=IN_PROCESS does that on purpose (no start-up and no isolation: for tests
    and tools, not offered on the command line)."""
    if not sources:
        return
    if workers <= IN_PROCESS:
        yield from (process_file(source, timeout_s) for source in sources)
        return
    shards = make_shards(sources, workers)
    try:
        pool = WorkerPool(min(workers, len(shards)), timeout_s, embed_cache)
    except (OSError, RuntimeError):
        yield from (process_file(source, timeout_s) for source in sources)
        return
    with pool:
        yield from pool.run(sources, [shard.indices for shard in shards])
