"""Warm state a long-lived process lends to the app layer's calls.

`ctxopt mcp` and the background server keep an open index reader (with the rows it has
read) and a file watcher that can tell a call nothing changed.  A command run inside such
a process calls `refresh_then_query` or `refresh_then_pack` exactly as it would in a fresh
process; while a `WarmSource` is in use (`lend`), those functions take the reader and the
freshness answer from it instead of opening and checking anew.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from ctxopt.app.refresh import Freshness, Notify, refresh_index
from ctxopt.config.settings import Settings
from ctxopt.index.store import IndexReader


@dataclass
class WarmCall:
    """One call's borrowed state; the call reports how many files it left stale."""

    reader: IndexReader | None
    known_fresh: bool
    left_stale: int = 0


class WarmSource(Protocol):
    def call(self, settings: Settings) -> AbstractContextManager[WarmCall]:
        """The reader and freshness answer for one call on settings' index; after the
        block, the call's `left_stale` decides whether its check becomes the reference."""
        ...


_SOURCE: ContextVar[WarmSource | None] = ContextVar("ctxopt_warm_source", default=None)


@contextmanager
def lend(source: WarmSource) -> Iterator[None]:
    """App calls inside the block take their reader and freshness from source."""
    token = _SOURCE.set(source)
    try:
        yield
    finally:
        _SOURCE.reset(token)


@contextmanager
def warm_call(
    settings: Settings, reader: IndexReader | None, known_fresh: bool
) -> Iterator[WarmCall]:
    """The state for one call: what the caller passed, or, when it passed no reader and a
    source is lent, the source's."""
    source = _SOURCE.get()
    if reader is not None or source is None:
        yield WarmCall(reader, known_fresh)
        return
    with source.call(settings) as call:
        yield call


@contextmanager
def refreshed_index(
    settings: Settings,
    *,
    refresh: bool,
    notify: Notify | None,
    reader: IndexReader | None,
    known_fresh: bool,
) -> Iterator[tuple[Freshness, IndexReader]]:
    """`refresh_index` with the call's warm state (see `warm_call`); the block runs the
    call's work on the reader it yields."""
    with warm_call(settings, reader, known_fresh) as warm:
        freshness, current = refresh_index(
            settings,
            refresh=refresh,
            notify=notify,
            reader=warm.reader,
            known_fresh=warm.known_fresh,
        )
        warm.left_stale = freshness.left_stale
        yield freshness, current
