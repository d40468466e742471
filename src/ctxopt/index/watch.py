"""`ctxopt index --watch`: keep an index current as files change (watchfiles).

Changes are gathered into batches: a batch ends once no file of it has changed for QUIET_MS,
or after MAX_BATCH_MS (watchfiles ends a batch when no new path changed; `settle` then waits
while the batch's files keep changing, since a file saved again and again is no new path).
Each batch runs one incremental index run (the same plan, lock and commit marker as `ctxopt
index`), so the walk's own rules decide what counts:
a batch that touches only ignored or skipped files changes nothing and writes nothing.

Before any of that, events under `.git/` (but the HEAD it names: a commit, a reset or a
checkout moves it, and with it the commit times the index keeps), any `.ctxopt/` index folder,
the index folder given with --db and the vendored folders the walk never lists are dropped, so
ctxopt's own writes never start a batch: one change makes one run, not a loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ctxopt.config.paths import INDEX_DIR
from ctxopt.config.settings import Settings
from ctxopt.discover.skip_rules import OUTPUT_DIRS, VCS_DIRS, VENDORED_DIRS
from ctxopt.embed.base import Embedder
from ctxopt.types import IndexStats

QUIET_MS = 300  # a batch ends after this long without a new change
MAX_BATCH_MS = 2_000  # ... or after this long, however busy the tree
NEVER_WATCHED = frozenset({INDEX_DIR, *VCS_DIRS, *VENDORED_DIRS, *(OUTPUT_DIRS - {"build"})})


class InterruptedUpdate(KeyboardInterrupt):
    """Ctrl-C during a batch's index run (not while waiting for changes)."""


class StopSignal(Protocol):
    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class WatchBatch:
    """One batch of changes and what the index run made of it."""

    paths: tuple[str, ...]  # changed paths that passed the filter, relative to root, sorted
    stats: IndexStats  # the run's figures: added, changed and deleted files
    first: bool = False  # the catch-up run once the watcher is live (paths is empty)

    @property
    def indexed(self) -> bool:
        """Whether the index changed (a file added, changed or deleted)."""
        return bool(self.stats.added or self.stats.changed or self.stats.deleted)


class ChangeFilter:
    """The watchfiles filter: True for a change that may matter to the index."""

    def __init__(self, root: Path, db: Path | str) -> None:
        self.root = root.resolve()
        self.db = db.resolve() if isinstance(db, Path) else None  # an object-store URI: not here

    def __call__(self, _change: object, path: str) -> bool:
        return self.relative(path) is not None or self.moves_head(path)

    def moves_head(self, path: str) -> bool:
        """Whether path is git's record of the commit checked out (`.git/HEAD`, a branch
        under `.git/refs/heads/`, `.git/packed-refs`): a commit, a reset or a checkout moves
        it, and the index's files carry the time of their last commit (`build._redated`).
        ctxopt's own git calls only read, so this starts no loop."""
        try:
            parts = Path(path).relative_to(self.root).parts
        except ValueError:
            return False
        if len(parts) < 2 or parts[0] != ".git":
            return False
        return parts[1:] in (("HEAD",), ("packed-refs",)) or parts[1:3] == ("refs", "heads")

    def relative(self, path: str) -> str | None:
        """path relative to root, POSIX; None when it is left out."""
        absolute = Path(path)
        if self.db is not None and (absolute == self.db or self.db in absolute.parents):
            return None
        try:
            rel = absolute.relative_to(self.root)
        except ValueError:
            return None
        if not rel.parts or NEVER_WATCHED.intersection(rel.parts):
            return None
        return rel.as_posix()


def watch_index(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    stop: StopSignal | None = None,
    quiet_ms: int = QUIET_MS,
    max_batch_ms: int = MAX_BATCH_MS,
) -> Iterator[WatchBatch]:
    """Yield one WatchBatch per batch of changes under settings.root, after its index run,
    until stop is set.

    The first batch comes once the watcher is live: a catch-up run for whatever changed
    before (during the run that built the index, say), so no change falls between the two.
    Ctrl-C raises KeyboardInterrupt while waiting, InterruptedUpdate during a run (whose
    commit marker then still names the last complete index)."""
    from watchfiles import watch

    changes = ChangeFilter(settings.root, settings.db_path)
    live = False
    for batch in watch(
        settings.root,
        watch_filter=changes,
        debounce=max_batch_ms,
        step=quiet_ms,
        stop_event=stop,
        rust_timeout=quiet_ms,
        yield_on_timeout=True,  # an empty batch: the watcher is live
        raise_interrupt=True,
        ignore_permission_denied=True,
    ):
        if live and not batch:
            continue
        paths = sorted({rel for _kind, path in batch if (rel := changes.relative(path))})
        if live:  # a file still being written is indexed once it is still
            settle([settings.root / rel for rel in paths], quiet_ms / 1000, max_batch_ms / 1000)
        yield WatchBatch(tuple(paths), _update(settings, embedder), first=not live)
        live = True


def settle(
    paths: Sequence[Path],
    quiet_s: float,
    max_s: float,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Wait while the batch's files keep changing: until none has changed for quiet_s, or max_s
    went by.  watchfiles gathers a set of changed paths, so a file saved again and again adds
    nothing to it and would end a batch every quiet_s: an index run each."""
    started = clock()
    last = _stamps(paths)
    while clock() - started < max_s:
        sleep(quiet_s)
        now = _stamps(paths)
        if now == last:
            return
        last = now


def _stamps(paths: Sequence[Path]) -> tuple[tuple[int, int] | None, ...]:
    out: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:  # deleted, or not a file any more
            out.append(None)
            continue
        out.append((info.st_mtime_ns, info.st_size))
    return tuple(out)


def _update(settings: Settings, embedder: Embedder | None) -> IndexStats:
    """One incremental index run (waiting for another `ctxopt index` to end first)."""
    from ctxopt.index.build import build_index

    try:
        return build_index(settings, embedder=embedder, wait=True)
    except KeyboardInterrupt:
        raise InterruptedUpdate from None
