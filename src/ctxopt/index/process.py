"""Reading, hashing and chunking files, every parse isolated in a worker process."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ctxopt.index.file_jobs import ProcessedFile, file_hash, process_file, warm_up
from ctxopt.index.workers import WorkerPool
from ctxopt.types import SourceFile

__all__ = ["ProcessedFile", "file_hash", "process_file", "process_files", "warm_up"]


def process_files(
    sources: Sequence[SourceFile], timeout_s: float, workers: int
) -> Iterator[ProcessedFile]:
    """Process files in order, every parse in a worker process, whatever the run's size.

    A file whose parser kills its worker (a segfaulting grammar) or runs past the watchdog
    (a grammar that hangs where the parse deadline cannot reach) costs only that file: it
    falls back to line chunks, its worker is replaced and the others go on.  When no worker
    can start at all (a caller's script without a main guard, a sandbox without process
    support), the files are processed in this process instead.
    """
    if not sources:
        return
    try:
        pool = WorkerPool(max(1, workers), timeout_s)
    except (OSError, RuntimeError):
        yield from (process_file(source, timeout_s) for source in sources)
        return
    with pool:
        yield from pool.run(sources)
