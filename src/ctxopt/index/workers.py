"""A small pool of parser processes with a watchdog, for process.process_sharded.

Unlike concurrent.futures, a worker that dies or hangs costs only the file it was on:
results come back one file at a time, so the parent knows which file a worker was
parsing when it died or stopped answering, kills that worker alone, gives the file line
chunks and hands the rest of the worker's batch to a fresh worker.
"""

from __future__ import annotations

import signal
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ctxopt.types import SourceFile

if TYPE_CHECKING:
    from ctxopt.index.file_jobs import ProcessedFile


READY = "ready"
READY_S = 120.0  # a worker's start-up on a busy machine (the fork server imports the parsers)


def _serve(conn: Connection, timeout_s: float, embed_cache: str | None) -> None:
    """A worker: process the shards it is sent, one result per file, until told to stop;
    with embed_cache it also embeds each file (worker_embed).  Ctrl-C is the parent's to
    handle (it stops the workers); the worker ignores it."""
    from ctxopt.index import file_jobs, worker_embed

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    embedder = worker_embed.worker_embedder(embed_cache)
    try:
        conn.send(READY)
        while True:
            batch = conn.recv()
            if batch is None:
                return
            for index, source in batch:
                done = file_jobs.process_file(source, timeout_s)
                if embedder is not None:
                    done = worker_embed.embed_file(done, embedder)
                conn.send((index, done))
    except (OSError, EOFError):  # the parent is gone (killed): stop quietly
        return


def _answered(conn: Connection) -> bool:
    """Whether a new worker said it is ready (False if it died first or never answered)."""
    try:
        return bool(conn.poll(READY_S)) and conn.recv() == READY
    except (EOFError, OSError):
        return False


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    pending: deque[int] = field(default_factory=deque)  # file indices sent, not yet answered
    since: float = 0.0  # when the file it is on started (last answer or batch sent)


class WorkerPool:
    """size worker processes; with embed_cache (the static model's cache folder) each
    worker embeds the files it chunks."""

    def __init__(self, size: int, timeout_s: float, embed_cache: str | None = None) -> None:
        from ctxopt.index import file_jobs

        self._context: Any = file_jobs.worker_context()
        file_jobs.start_server(self._context)
        self._timeout_s = timeout_s
        self._embed_cache = embed_cache
        self._watchdog = file_jobs.watchdog_s(timeout_s)
        self._workers: list[_Worker] = []
        for _ in range(size):
            self._workers.append(self._start())
        for worker in self._workers:
            if not _answered(worker.conn):
                self.__exit__(RuntimeError, None, None)
                raise RuntimeError("no parser worker could start")

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        worker = self._context.Process(
            target=_serve, args=(child, self._timeout_s, self._embed_cache), daemon=True
        )
        worker.start()
        child.close()
        return _Worker(worker, parent)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for worker in self._workers:
            self._stop(worker, kill=kind is not None or bool(worker.pending))

    def _stop(self, worker: _Worker, *, kill: bool) -> None:
        if not kill:
            try:
                worker.conn.send(None)
            except OSError:
                kill = True
        worker.conn.close()
        if kill:
            worker.process.kill()
        worker.process.join(timeout=5)

    def run(
        self, sources: Sequence[SourceFile], shards: Sequence[Sequence[int]] | None = None
    ) -> Iterator[ProcessedFile]:
        """Yield every file's result in the order of sources.  Each idle worker is sent the
        next shard (indices into sources; by default runs of file_jobs.BATCH files); results
        that arrive ahead of their turn wait, so memory holds at most a shard per worker."""
        from ctxopt.index import file_jobs

        if shards is None:
            size = max(1, min(file_jobs.BATCH, -(-len(sources) // len(self._workers))))
            shards = [range(i, min(i + size, len(sources))) for i in range(0, len(sources), size)]
        queue: deque[list[int]] = deque(list(shard) for shard in shards if shard)
        done: dict[int, ProcessedFile] = {}
        following = 0
        while following < len(sources):
            for worker in self._workers:
                if not worker.pending and queue:
                    self._send(worker, queue.popleft(), sources)
            busy = [w for w in self._workers if w.pending]
            now = time.monotonic()
            left = min(w.since + self._watchdog - now for w in busy)
            ready = set(wait([w.conn for w in busy], timeout=max(0.0, left)))
            for slot, worker in enumerate(self._workers):
                if worker.conn in ready:
                    self._receive(slot, worker, sources, queue, done)
                elif worker.pending and time.monotonic() - worker.since > self._watchdog:
                    self._replace(slot, worker, sources, queue, done, "parser hung")
            while following in done:
                yield done.pop(following)
                following += 1

    def _send(self, worker: _Worker, indices: list[int], sources: Sequence[SourceFile]) -> None:
        worker.pending.extend(indices)
        worker.since = time.monotonic()
        worker.conn.send([(i, sources[i]) for i in indices])

    def _receive(
        self,
        slot: int,
        worker: _Worker,
        sources: Sequence[SourceFile],
        queue: deque[list[int]],
        done: dict[int, ProcessedFile],
    ) -> None:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(slot, worker, sources, queue, done, "parser crashed")
            return
        if message == READY:  # a replacement worker has started
            return
        index, result = message
        worker.pending.remove(index)
        worker.since = time.monotonic()
        done[index] = result

    def _replace(
        self,
        slot: int,
        worker: _Worker,
        sources: Sequence[SourceFile],
        queue: deque[list[int]],
        done: dict[int, ProcessedFile],
        reason: str,
    ) -> None:
        """The worker died or hung on its current file: line chunks for that file, its other
        files back to the front of the queue, and a fresh worker in its place."""
        from ctxopt.index import file_jobs

        culprit = worker.pending.popleft()
        done[culprit] = file_jobs.fallback(sources[culprit], reason)
        if worker.pending:
            queue.appendleft(list(worker.pending))
        worker.pending.clear()
        self._stop(worker, kill=True)
        self._workers[slot] = self._start()
