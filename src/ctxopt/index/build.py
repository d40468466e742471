"""The index pipeline: discover -> plan -> chunk -> count -> embed -> write."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ctxopt.chunking import CHUNKER_VERSION
from ctxopt.config.paths import DbLocation
from ctxopt.config.settings import Settings
from ctxopt.discover import git as gitmeta
from ctxopt.discover.history import recent_commits
from ctxopt.embed.base import DIMENSIONS, STATIC_NAME, Embedder, canonical_name, flag_name
from ctxopt.embed.factory import get_embedder
from ctxopt.errors import IndexMismatchError
from ctxopt.index import schema, vector_index
from ctxopt.index.commit import IndexState, safe_read_commit
from ctxopt.index.freshness import discover_files, scoped_settings
from ctxopt.index.graph import build_graph
from ctxopt.index.integrity import FULL_TEXT_FIELD, broken_indices, repaired_message
from ctxopt.index.lock import index_lock
from ctxopt.index.owner import check_index_folder, check_owner
from ctxopt.index.plan import plan_refresh, resolve_touched
from ctxopt.index.process import (
    IN_PROCESS,
    ProcessedFile,
    default_workers,
    file_hash,
    process_sharded,
    warm_up,
)
from ctxopt.index.recover import prepare_update
from ctxopt.index.scope import scope_of
from ctxopt.index.store import IndexReader, IndexWriter, ignore_self, make_index_folder
from ctxopt.index.worker_embed import shared_cache_dir
from ctxopt.types import (
    Chunk,
    FileRecord,
    IndexMeta,
    IndexStats,
    PastCommit,
    RefreshPlan,
    SourceFile,
)
from ctxopt.wording import shown_path

EMBED_BATCH = 1024  # chunks the parent embeds at a time (when the workers do not)
WRITE_BATCH = 8_192  # chunks per write: bounds the rows held in memory, whatever the repo


class Progress(Protocol):
    def start(self, total: int, description: str) -> None: ...
    def advance(self, amount: int = 1) -> None: ...
    def message(self, text: str) -> None: ...


class SilentProgress:
    def start(self, total: int, description: str) -> None:
        pass

    def advance(self, amount: int = 1) -> None:
        pass

    def message(self, text: str) -> None:
        pass


@dataclass
class _Batch:
    """Chunks and records waiting to be written together."""

    paths: list[str]
    chunks: list[Chunk]
    vectors: list[Any]
    search: list[str]  # the full-text column, one per chunk
    records: list[FileRecord]
    times: list[int]  # each chunk's commit time (its file's), one per chunk

    @classmethod
    def empty(cls) -> _Batch:
        return cls([], [], [], [], [], [])

    def add_embedded(
        self, chunks: Sequence[Chunk], vectors: Any, search: Sequence[str], commit_time: int
    ) -> None:
        """A file's chunks with the vectors and search texts a worker made for them, and the
        file's commit time (kept beside them: a copy of every chunk to date it costs more)."""
        if chunks:
            self.chunks.extend(chunks)
            self.vectors.append(vectors)
            self.search.extend(search)
            self.times.extend([commit_time] * len(chunks))


def read_stored(db: DbLocation, *, full: bool) -> tuple[IndexReader | None, IndexMeta | None]:
    """The index's reader and meta, read once per run; with --full an unreadable index counts
    as none (it is rebuilt anyway)."""
    if prepare_update(db, full=full) is IndexState.MISSING:  # roll back / resume / clear
        return None, None
    reader = IndexReader(db, committed=False)
    try:
        return reader, reader.meta()
    except Exception:
        if not full:
            raise
        return None, None


def load_existing(
    reader: IndexReader | None, meta: IndexMeta | None, embedder_name: str, *, full: bool
) -> tuple[dict[str, FileRecord], IndexMeta | None]:
    """Stored file records and meta; a mismatched embedder or format needs --full.

    An index from an older chunker is rebuilt transparently (meta None): its chunks
    would differ from what this version makes, and nothing else is lost.
    """
    if full or reader is None or meta is None:
        return {}, None
    if meta.format_version != schema.FORMAT_VERSION:
        raise IndexMismatchError(
            f"the index at {reader.db} was written by another ctxopt version "
            f"(format {meta.format_version}); rebuild it with `ctxopt index --full`"
        )
    if meta.embedder != embedder_name:
        raise IndexMismatchError(
            f"the index at {reader.db} was built with embedder {flag_name(meta.embedder)}, not "
            f"{flag_name(embedder_name)}; to switch, rebuild it with `ctxopt index --full "
            f"--embedder {flag_name(embedder_name)}`, or pass --embedder {flag_name(meta.embedder)}"
        )
    if meta.chunker_version != CHUNKER_VERSION:
        return {}, None
    return reader.file_records(), meta


def embedder_for(settings: Settings, stored: IndexMeta | None) -> str:
    """The embedder to index with: the one the user set, else the one the index was built
    with (an index built with --embedder minilm stays so on every later run and refresh),
    else the default."""
    if settings.source("embedder") == "default" and stored and stored.embedder in DIMENSIONS:
        return stored.embedder
    return canonical_name(settings.embedder)


@dataclass(frozen=True)
class IndexPlan:
    """What one index run will do, decided before anything is chunked or written."""

    settings: Settings
    embedder_name: str
    stored: dict[str, FileRecord]  # file records kept from the index ({} for a rebuild)
    meta: IndexMeta | None  # None: the index is (re)built from scratch
    refresh: RefreshPlan  # added, changed and deleted files, content hashes checked
    same: tuple[SourceFile, ...]  # stat changed, content the same: records updated only
    skipped: dict[str, int]  # files left out, per reason
    head: str  # the commit the work tree is at ("" outside git)
    complete: bool  # the index's commit marker matches its tables (else finish the run)
    history_kept: bool  # the committed index holds the history of its commit
    broken_indices: tuple[str, ...] = ()  # columns whose index lost a file: rebuilt

    @property
    def history_due(self) -> bool:
        """The history table is written: new, at another commit, another length, or missing."""
        return (
            self.meta is None
            or self.meta.last_commit != self.head
            or self.meta.history_commits != self.settings.history_commits
            or not self.history_kept
        )

    @property
    def todo(self) -> list[SourceFile]:
        """The files to chunk, count and embed."""
        return [*self.refresh.added, *self.refresh.changed]

    @property
    def up_to_date(self) -> bool:
        """Nothing to chunk, delete or update, and the index is at the same commit."""
        return (
            self.complete
            and not self.todo
            and not self.refresh.deleted
            and not self.same
            and not self.history_due
            and not self.broken_indices
        )


def plan_index(
    settings: Settings, *, full: bool = False, embedder_name: str | None = None
) -> IndexPlan:
    """Compare the repository with the stored index: which files to (re)process, delete or
    touch.  A mismatched embedder or format raises IndexMismatchError (rebuild with --full)."""
    settings = scoped_settings(settings)
    reader, stored_meta = read_stored(settings.db_path, full=full)
    if stored_meta is not None and not full:
        check_owner(stored_meta, settings.db_path, settings.root)
    name = embedder_name or embedder_for(settings, stored_meta)
    found = discover_files(settings)
    stored, meta = load_existing(reader, stored_meta, name, full=full)
    # read_stored has rolled back, resumed or cleared the index: a marker left is readable
    marker = safe_read_commit(settings.db_path)
    plan = plan_refresh(found.files, stored, full=full or meta is None)
    hashes = {s.path: file_hash(s.abs_path) for s in plan.touched}
    plan, same = resolve_touched(plan, hashes, stored)
    head = gitmeta.head_commit(settings.root)
    if meta is not None and head and meta.last_commit != head:
        plan = _redated(settings, plan, found.files, stored, meta.last_commit, head)
        redone = {c.path for c in plan.changed}
        same = tuple(s for s in same if s.path not in redone)
    return IndexPlan(
        settings=settings,
        embedder_name=name,
        stored=stored,
        meta=meta,
        refresh=plan,
        same=tuple(same),
        skipped=dict(Counter(s.reason for s in found.skipped)),
        head=head,
        complete=marker is not None,
        history_kept=marker is not None and schema.HISTORY in marker.versions,
        broken_indices=_broken_indices(reader) if meta is not None else (),
    )


def _redated(
    settings: Settings,
    plan: RefreshPlan,
    files: Sequence[SourceFile],
    stored: dict[str, FileRecord],
    last_commit: str,
    head: str,
) -> RefreshPlan:
    """plan, with the files whose last commit moved since the index was built (HEAD moved:
    a commit, an amend, a rebase, a checkout) among the changed ones, so that their chunks
    carry the commit time a full rebuild would give them.  Only files the commits between the
    two HEADs touched can have moved (a file indexed before it was committed included), or,
    after an index made before the first commit, the files committed since."""
    if last_commit:  # a file indexed before its commit: that commit is among these
        candidates = gitmeta.files_touched_between(settings.root, last_commit, head) or set()
    else:  # indexed before the first commit: the files committed since
        undated = [path for path, record in stored.items() if not record.commit_time]
        candidates = gitmeta.tracked(settings.root, undated)
    todo = {s.path for s in (*plan.added, *plan.changed)}
    sources = {s.path: s for s in files}
    wanted = sorted(p for p in candidates if p in sources and p in stored and p not in todo)
    if not wanted:
        return plan
    times = gitmeta.last_commit_times(settings.root, wanted)
    moved = [sources[p] for p in wanted if times.get(p, 0) != stored[p].commit_time]
    return replace(plan, changed=(*plan.changed, *moved)) if moved else plan


def _broken_indices(reader: IndexReader | None) -> tuple[str, ...]:
    """The chunks table's indices that lost a file (they are rebuilt; the rows are intact)."""
    if reader is None or not reader.location.has_table(schema.CHUNKS):
        return ()
    return broken_indices(reader.dataset(schema.CHUNKS), reader.location, schema.CHUNKS)


def build_index(
    settings: Settings,
    *,
    full: bool = False,
    progress: Progress | None = None,
    embedder: Embedder | None = None,
    workers: int | None = None,
    wait: bool = False,
    refresh: bool = False,
) -> IndexStats:
    """Bring the index of settings.root up to date and return its figures.

    One run at a time per index: a second one raises IndexBusyError, or with wait blocks
    until the first ends.  The lock covers the plan and its application.  refresh: this is
    the refresh before a query or a pack (the lock says so, see index/lock.py)."""
    check_index_folder(settings.db_path, settings.root)
    make_index_folder(settings.db_path)
    notify = progress.message if progress else None
    with index_lock(settings.db_path, wait=wait, notify=notify, refresh=refresh):
        return _build_locked(
            settings, full=full, progress=progress, embedder=embedder, workers=workers
        )


def _build_locked(
    settings: Settings,
    *,
    full: bool,
    progress: Progress | None,
    embedder: Embedder | None,
    workers: int | None,
) -> IndexStats:
    started = time.perf_counter()
    plan = plan_index(settings, full=full, embedder_name=embedder.name if embedder else None)
    if plan.up_to_date:
        ignore_self(settings.db_path)  # an index built before ctxopt wrote .gitignore
        return _stats(plan.stored, plan.skipped, started, plan.embedder_name, settings.db_path)
    progress = progress or SilentProgress()
    if plan.todo and workers != IN_PROCESS:  # the parser workers' fork server, while the
        static = plan.embedder_name == STATIC_NAME  # embedder loads here
        warm_up(settings.model_cache if static else None)
    embedder = embedder or get_embedder(
        plan.embedder_name, cache_dir=settings.model_cache, notify=progress.message
    )
    return apply_index(plan, embedder, progress, workers=workers, started=started)


class _LazyWriter:
    """The index writer, opened at the first write (a rebuild drops the old tables then)."""

    def __init__(self, db: DbLocation, dimensions: int, *, rebuild: IndexMeta | None) -> None:
        self._args = (db, dimensions)
        self._rebuild = rebuild  # the new meta, written first on a rebuild
        self._writer: IndexWriter | None = None

    def get(self) -> IndexWriter:
        if self._writer is None:
            self._writer = IndexWriter(*self._args)
            if self._rebuild is not None:
                self._writer.drop_all()
                self._writer.write_meta(self._rebuild)  # an interrupted run can be resumed
        return self._writer


def _new_meta(plan: IndexPlan, dimensions: int) -> IndexMeta:
    return IndexMeta(
        format_version=schema.FORMAT_VERSION,
        embedder=plan.embedder_name,
        dimensions=dimensions,
        chunker_version=CHUNKER_VERSION,
        last_commit=plan.head,
        indexed_at=time.time(),
        repo_root=str(plan.settings.root),
        history_commits=plan.settings.history_commits,
    )


def apply_index(
    plan: IndexPlan,
    embedder: Embedder,
    progress: Progress,
    *,
    workers: int | None = None,
    started: float | None = None,
) -> IndexStats:
    """Chunk, count, embed and write what the plan says, then the meta and import graph."""
    started = time.perf_counter() if started is None else started
    settings, name, todo = plan.settings, plan.embedder_name, plan.todo
    sink = _LazyWriter(
        settings.db_path,
        DIMENSIONS.get(name, embedder.dimensions),
        rebuild=_new_meta(plan, embedder.dimensions) if plan.meta is None else None,
    )
    commit_times = gitmeta.last_commit_times(settings.root, [s.path for s in todo]) if todo else {}
    records = dict(plan.stored)
    for source in plan.same:
        records[source.path] = replace(
            records[source.path], size=source.size, mtime_ns=source.mtime_ns
        )
    counters = Counter[str]()
    warnings = [repaired_message(plan.broken_indices)] if plan.broken_indices else []
    progress.start(len(todo), "indexing")
    batch = _Batch.empty()
    pending: list[Chunk] = []
    workers = default_workers() if workers is None else workers
    in_workers = shared_cache_dir(embedder) if workers > 1 and todo else None
    for done in process_sharded(todo, settings.parse_timeout, workers, embed_cache=in_workers):
        _note_file(done, counters, warnings)
        record = _file_record(done, commit_times.get(done.source.path, 0))
        records[done.source.path] = record
        batch.paths.append(done.source.path)
        batch.records.append(record)
        if done.vectors is not None:
            batch.add_embedded(done.chunked.chunks, done.vectors, done.search, record.commit_time)
        else:
            pending.extend(replace(c, commit_time=record.commit_time) for c in done.chunked.chunks)
        if len(pending) >= EMBED_BATCH:
            _embed_into(batch, pending, embedder)
            pending = []
        if len(batch.chunks) + len(pending) >= WRITE_BATCH:
            _embed_into(batch, pending, embedder)
            pending = []
            _write(sink.get(), batch)
            batch = _Batch.empty()
        progress.advance()
    _embed_into(batch, pending, embedder)
    _finish(plan, sink.get(), batch, records, embedder.dimensions)
    return _stats(
        records,
        plan.skipped,
        started,
        name,
        settings.db_path,
        added=len(plan.refresh.added),
        changed=len(plan.refresh.changed),
        deleted=len(plan.refresh.deleted),
        embedded=counters["embedded"],
        fallback_files=counters["fallback"],
        decode_errors=counters["decode_errors"],
        warnings=tuple(warnings),
    )


def _finish(
    plan: IndexPlan,
    target: IndexWriter,
    batch: _Batch,
    records: dict[str, FileRecord],
    dimensions: int,
) -> None:
    """The last batch, the deletions and touched records, the meta, graph, history and
    compaction."""
    _write(target, batch)
    deleted = list(plan.refresh.deleted)
    if deleted:
        target.replace_chunks(deleted, None)
    target.upsert_files([records[s.path] for s in plan.same], deleted=deleted)
    for path in deleted:
        records.pop(path, None)
    target.write_meta(_new_meta(plan, dimensions))
    # The graph is Python work; the vector and full-text index builds run in Lance's own
    # threads meanwhile (about 2 s saved at 10M lines on two cores).
    with ThreadPoolExecutor(1, thread_name_prefix="ctxopt-graph") as pool:
        graph = history = None
        # a resumed first run rewrites it: the killed run may have died writing it
        if _graph_changed(plan.stored, records, plan.meta is None or not plan.complete):
            graph = pool.submit(build_graph, {p: r.imports for p, r in records.items()})
        if plan.history_due:
            history = pool.submit(_past_commits, plan.settings)
        broken, fresh = plan.broken_indices, plan.meta is None
        vector_index.ensure_at(plan.settings.db_path, rebuild=fresh or "vector" in broken)
        target.update_fts(rebuild=fresh or FULL_TEXT_FIELD in broken)
        if graph is not None:
            target.write_graph(graph.result())
        if history is not None:
            target.write_history(history.result())
    target.commit(scope_of(plan.settings))


def _past_commits(settings: Settings) -> list[PastCommit]:
    """The newest commits the index keeps: their messages rank the files they modified."""
    keep = settings.history_commits
    return recent_commits(settings.root, "HEAD", keep) if keep > 0 else []


def _graph_changed(before: dict[str, FileRecord], after: dict[str, FileRecord], cold: bool) -> bool:
    """The import graph needs rebuilding when files come or go or their imports change."""
    if cold or before.keys() != after.keys():
        return True
    return any(before[p].imports != after[p].imports for p in after)


def _note_file(done: ProcessedFile, counters: Counter[str], warnings: list[str]) -> None:
    counters["embedded"] += len(done.chunked.chunks)
    counters["decode_errors"] += done.chunked.decode_errors
    if done.chunked.fallback_reason and done.source.language not in ("text",):
        counters["fallback"] += 1
        reason = done.chunked.fallback_reason
        warnings.append(f"{shown_path(done.source.path)}: line chunks ({reason})")
    if done.error:
        warnings.append(f"{shown_path(done.source.path)}: {done.error}")


def _file_record(done: ProcessedFile, commit_time: int) -> FileRecord:
    chunks = done.chunked.chunks
    return FileRecord(
        path=done.source.path,
        content_hash=done.content_hash,
        size=done.source.size,
        mtime_ns=done.source.mtime_ns,
        language=done.source.language,
        tokens=sum(c.tokens for c in chunks),
        chunks=len(chunks),
        commit_time=commit_time,
        imports=chunks[0].imports if chunks else (),
    )


def _embed_into(batch: _Batch, chunks: Sequence[Chunk], embedder: Embedder) -> None:
    if not chunks:
        return
    batch.vectors.append(embedder.embed([schema.embed_text(c) for c in chunks]))
    batch.chunks.extend(chunks)
    batch.search.extend(schema.search_text(c) for c in chunks)
    batch.times.extend(c.commit_time for c in chunks)


def _write(writer: IndexWriter, batch: _Batch) -> None:
    import numpy as np

    if not batch.paths:
        return
    dims = writer.dimensions
    vectors = np.concatenate(batch.vectors) if batch.vectors else np.zeros((0, dims), np.float32)
    rows = None
    if batch.chunks:
        rows = schema.chunk_rows(batch.chunks, vectors, dims, batch.search, batch.times)
    writer.replace_chunks(batch.paths, rows)
    writer.upsert_files(batch.records, deleted=[])


def _stats(
    records: dict[str, FileRecord],
    skipped: dict[str, int],
    started: float,
    embedder_name: str,
    db: DbLocation,
    **extra: Any,
) -> IndexStats:
    return IndexStats(
        files=len(records),
        chunks=sum(r.chunks for r in records.values()),
        tokens=sum(r.tokens for r in records.values()),
        languages=language_table(records.values()),
        skipped=skipped,
        seconds=round(time.perf_counter() - started, 3),
        embedder=embedder_name,
        db_path=str(db),
        **extra,
    )


def language_table(records: Iterable[FileRecord]) -> dict[str, dict[str, int]]:
    """Per-language files, chunks and tokens, sorted by language."""
    table: dict[str, dict[str, int]] = {}
    for record in records:
        row = table.setdefault(record.language, {"files": 0, "chunks": 0, "tokens": 0})
        row["files"] += 1
        row["chunks"] += record.chunks
        row["tokens"] += record.tokens
    return dict(sorted(table.items()))
