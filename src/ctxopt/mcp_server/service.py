"""The one repository a server answers for: settings per call, one call at a time, the
index refreshed before each answer, and the warm state a long-lived process keeps.

What stays warm: the index reader, with the file records, meta and graph it has read, kept
while the index's commit marker names the same commit (a refresh, or a `ctxopt index` run
beside the server, makes the next call open a new one); and process state the library keeps
once loaded: the tokenizer (`tokens.encoding`), the embedder and task encoder
(`embed.factory`), the imported pylance and tree-sitter modules and their grammars.
`warm_up` loads them all with one small pack at start-up, so an agent's first call is warm.

The freshness check (git's listing and a stat of every file) runs only when the server's
file watcher saw a change, or cannot tell (see `fresh_state`); the caches of retrieval and
packing (`window_cache`, `render_cache`, `prompt_tokens`) live as long as the process.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from ctxopt.app.pack import refresh_then_pack
from ctxopt.app.query import refresh_then_query
from ctxopt.app.refresh import Freshness, build_index, refresh_index
from ctxopt.app.stats_report import StatsReport, StatsRequest, stats_report
from ctxopt.app.warm import WarmCall, lend
from ctxopt.config.paths import is_object_store
from ctxopt.config.settings import Settings, load_settings
from ctxopt.discover.changes import ChangeRequest
from ctxopt.errors import CtxoptError, IndexMissingError, UsageError
from ctxopt.index.commit import read_commit
from ctxopt.index.store import IndexReader
from ctxopt.mcp_server import reading
from ctxopt.mcp_server.fresh_state import FreshState
from ctxopt.pack.api import PackOptions
from ctxopt.retrieve.kept_rows import keep_rows, kept_rows
from ctxopt.retrieve.search import QueryOptions
from ctxopt.types import Chunk, IndexStats, PackResult, QueryResult

LOG = logging.getLogger("ctxopt.mcp")
Notify = Callable[[str], None]
WARM_UP_TASK = "how is this repository organised"


@dataclass(frozen=True)
class QueryCall:
    task: str
    top: int | None = None  # default: settings.top_k
    languages: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    no_tests: bool = False
    refresh: bool = True


@dataclass(frozen=True)
class PackCall:
    task: str
    budget: int | None = None
    model: str | None = None
    reserve: float | None = None
    compression: str | None = None
    format: str | None = None
    max_chunks_per_file: int | None = None
    line_numbers: bool = False
    edges: bool = False
    overview: bool = True
    languages: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    diff: bool = False
    diff_ref: str | None = None
    staged: bool = False
    refresh: bool = True


class RepoService:
    """Runs the tools' work for the repository of `settings`, one call at a time (the SDK
    runs tools on worker threads; the index and its refresh are not for two at once)."""

    def __init__(
        self, settings: Settings, *, notify: Notify | None = None, rows_on_thread: bool = True
    ) -> None:
        """rows_on_thread: a refreshed index's rows are loaded ahead on a thread as the call
        ends; without it they wait for `load_ahead` (for a process that changes its
        environment between calls, which no other thread may read meanwhile)."""
        self.settings = settings
        self._notify = notify
        self._lock = threading.Lock()
        self._kept: IndexReader | None = None
        self._rows_on_thread = rows_on_thread
        self.loading: threading.Thread | None = None  # loading the next reader's rows
        self._load_later: IndexReader | None = None  # ... or waiting for load_ahead
        self.fresh = FreshState()

    def reader(self) -> IndexReader | None:
        """The kept reader while the index's commit is the one it was opened on, else a new
        one; None without a complete index (the app layer then names the problem)."""
        try:
            current = read_commit(self.settings.db_path)
        except CtxoptError:
            current = None
        if current is None:
            self._kept = None
        elif self._kept is None or self._kept.commit != current:
            self._kept = IndexReader(self.settings.db_path)
            keep_rows(self._kept)  # its chunk rows are loaded on first use, kept with it
        return self._kept

    def _load_next(self) -> None:
        """After a call that changed the index (a refresh): open the reader of its new
        commit and load that reader's chunk rows on a thread, so the next call finds them
        loaded instead of loading them itself."""
        kept = self._kept
        if kept is None:
            return
        try:
            changed = read_commit(self.settings.db_path) != kept.commit
        except CtxoptError:
            return
        reader = self.reader() if changed else None
        if reader is None:
            return
        if not self._rows_on_thread:
            self._load_later = reader
            return
        self.loading = threading.Thread(
            target=_load_rows, args=(reader,), name="ctxopt-rows", daemon=True
        )
        self.loading.start()

    def load_ahead(self) -> None:
        """Load the rows a call left waiting (see rows_on_thread), here and now."""
        with self._lock:
            reader, self._load_later = self._load_later, None
            if reader is not None:
                _load_rows(reader)

    def settings_for(self, flags: Mapping[str, object]) -> Settings:
        """The server's settings with one call's values laid on top, checked as flags are
        (config files are read again, so an edit to them applies to the next call)."""
        db = str(self.settings.db) if self.settings.db is not None else None
        return load_settings(self.settings.root, {"db": db, **flags})

    def query(self, call: QueryCall) -> tuple[QueryResult, Freshness]:
        settings = self.settings_for({"top_k": call.top})
        options = QueryOptions(
            k=settings.top_k,
            languages=call.languages,
            kinds=call.kinds,
            globs=call.globs,
            no_tests=call.no_tests,
            lines_first=True,
        )
        with self._lock, lend(self):
            return refresh_then_query(
                settings, call.task, options, refresh=call.refresh, notify=self._notify
            )

    def pack(self, call: PackCall) -> PackResult:
        settings = self.settings_for(
            {
                "budget": call.budget,
                "model": call.model,
                "reserve": call.reserve,
                "compression": call.compression,
                "format": call.format,
                "max_chunks_per_file": call.max_chunks_per_file,
            }
        )
        options = PackOptions(
            task=call.task,
            budget=_budget(call.budget, settings),
            model=settings.model,
            reserve=settings.reserve,
            compression=settings.compression,
            format=settings.format,
            line_numbers=call.line_numbers,
            order="edges" if call.edges else "relevance",
            overview=call.overview,
            globs=call.globs,
            languages=call.languages,
            kinds=call.kinds,
        )
        wants_change = call.diff or call.diff_ref is not None or call.staged
        change = ChangeRequest(ref=call.diff_ref, staged=call.staged) if wants_change else None
        with self._lock, lend(self):
            return refresh_then_pack(
                settings, options, refresh=call.refresh, change=change, notify=self._notify
            )

    @contextmanager
    def call(self, settings: Settings) -> Iterator[WarmCall]:
        """The warm state for one app call on this repository (see `app.warm`); the
        caller holds the lock (one call at a time)."""
        known, key = self.fresh.begin(settings)
        warm = WarmCall(self.reader(), known)
        yield warm
        self.fresh.done(settings, key, warm.left_stale)
        self._load_next()

    def chunk(self, chunk_id: str) -> Chunk:
        with self._lock:
            _, reader = self._refreshed()
            return reading.read_chunk(self.settings, reader, chunk_id)

    def lines(self, path: str, start: int = 1, end: int | None = None) -> reading.Lines:
        with self._lock:
            _, reader = self._refreshed()
            return reading.read_lines(self.settings, reader, path, start, end)

    def _refreshed(self) -> tuple[Freshness, IndexReader]:
        known, key = self.fresh.begin(self.settings)
        freshness, reader = refresh_index(
            self.settings,
            refresh=True,
            notify=self._notify,
            reader=self.reader(),
            known_fresh=known,
        )
        self.fresh.done(self.settings, key, freshness.left_stale)
        return freshness, reader

    def refresh(self) -> IndexStats:
        """Bring the index up to date incrementally (building it when there is none). A
        shared index on object storage is not written: one checkout's edits would change
        every reader's results (only `ctxopt index --db URI` writes it, as for queries)."""
        db = self.settings.db_path
        if is_object_store(db):
            raise UsageError(
                f"the index at {db} is shared: the refresh tool does not write it (this "
                f"checkout's edits would reach everyone); `ctxopt index --db {db}` updates it"
            )
        with self._lock:
            stats = build_index(self.settings)
            self._load_next()
            return stats

    def stats(self, depth: int = 1, top: int = 10) -> StatsReport:
        with self._lock:
            self._refreshed()
            return stats_report(self.settings, StatsRequest(depth=depth, top=top, refresh=False))

    def warm_up(self) -> None:
        """One small pack: refreshes the index and loads every model and module a pack
        needs.  Without an index it only says so; the tools then name `ctxopt index`."""
        try:
            self.pack(PackCall(task=WARM_UP_TASK, budget=2000))
        except IndexMissingError as exc:
            self._say(f"{exc} (or call the refresh tool)")
        except CtxoptError as exc:
            self._say(f"warm-up skipped: {exc}")

    def close(self) -> None:
        """Stop the file watcher and wait for rows still loading (the server is done)."""
        with self._lock:
            self.fresh.close()
            loading = self.loading
        if loading is not None:
            loading.join()

    def _say(self, text: str) -> None:
        if self._notify is not None:
            self._notify(text)


def _load_rows(reader: IndexReader) -> None:
    try:
        kept_rows(reader)
    except Exception as exc:  # the next call loads them itself (and names the problem)
        LOG.info("could not load the index's chunk rows ahead: %s", exc)


def _budget(given: int | None, settings: Settings) -> int | None:
    """As `ctxopt pack`: a budget given wins; else a model's window decides, else the
    configured budget."""
    if given is not None:
        return given
    return None if settings.model else settings.budget
