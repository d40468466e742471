"""`ctxopt index --watch`: one line on stderr per batch that changed the index, until Ctrl-C."""

from __future__ import annotations

import time

from ctxopt.cli.console import Terminal
from ctxopt.config.settings import Settings
from ctxopt.errors import InterruptedRun
from ctxopt.index.commit import AfterInterrupt, after_interrupt, safe_read_commit
from ctxopt.index.watch import InterruptedUpdate, WatchBatch, watch_index
from ctxopt.wording import plural

IDLE = "the index at {db} is complete"
DURING_UPDATE = {
    AfterInterrupt.UNCHANGED: "the index at {db} is as before it; `ctxopt index` catches up",
    AfterInterrupt.COMMITTED: "the index at {db} had already been updated",
    AfterInterrupt.INCOMPLETE: "the index at {db} is incomplete; run `ctxopt index` to finish it",
    AfterInterrupt.NOTHING: "no index was written",
}


def batch_line(batch: WatchBatch, now: float | None = None) -> str:
    """`14:02:07 index updated: 1 added, 2 changed, 0 deleted (0.41 s)`."""
    stats = batch.stats
    clock = time.strftime("%H:%M:%S", time.localtime(now))
    return (
        f"{clock} index updated: {stats.added} added, {stats.changed} changed, "
        f"{stats.deleted} deleted ({plural(stats.embedded, 'chunk')} embedded, "
        f"{stats.seconds:.2f} s)"
    )


def watch_until_interrupted(terminal: Terminal, settings: Settings) -> None:
    """Keep the index of settings.root current; Ctrl-C ends with InterruptedRun (exit 130)
    naming the state the index was left in."""
    db = settings.db_path
    before = safe_read_commit(db)
    try:
        for batch in watch_index(settings):
            for warning in batch.stats.warnings:
                terminal.warn(warning)
            if batch.indexed:
                terminal.info(batch_line(batch))
            if batch.first:
                terminal.info(f"watching {settings.root} for changes (Ctrl-C stops)")
            before = safe_read_commit(db)
    except InterruptedUpdate:
        message = DURING_UPDATE[after_interrupt(db, before)].format(db=db)
        raise InterruptedRun(f"interrupted: stopped watching during an update; {message}") from None
    except KeyboardInterrupt:
        message = IDLE.format(db=db)
        raise InterruptedRun(f"interrupted: stopped watching; {message}") from None
