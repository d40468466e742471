"""Serving one repository over stdio until the client closes the connection, or a signal
(SIGTERM, SIGINT, SIGHUP) ends the process.

stdout carries only the protocol: the SDK's stdio transport points file descriptor 1 at
stderr while it serves (so stray prints and child processes miss the wire), and ctxopt's
messages go to stderr through `logging`.  The warm-up runs on a thread once the transport
is up, so `initialize` is answered at once and the first tool call waits for it.

Whichever way it ends, the file watcher's mark folder goes: closing stdin ends the serving
loop (the service closes its watcher); a signal removes the folder at once, then ends the
process as the signal would have (the thread reading stdin would keep it alive otherwise).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from ctxopt.config.settings import Settings
from ctxopt.mcp_server.service import RepoService
from ctxopt.mcp_server.tools import build_server
from ctxopt.mcp_server.watcher import remove_mark_folders

LOG = logging.getLogger("ctxopt.mcp")


def serve(settings: Settings, *, quiet: bool = False) -> None:
    """Run the server for settings.root until stdin closes."""
    _log_to_stderr(quiet)
    service = RepoService(settings, notify=LOG.info)
    _end_on_signals()

    warming: list[threading.Thread] = []

    @asynccontextmanager
    async def warm(_server: Any) -> AsyncIterator[None]:
        thread = threading.Thread(target=service.warm_up, name="ctxopt-warm-up", daemon=True)
        warming.append(thread)
        thread.start()
        yield

    LOG.info("ctxopt mcp: serving %s (index %s) over stdio", settings.root, settings.db_path)
    try:
        build_server(service, lifespan=warm).run("stdio")
    finally:
        for thread in warming:  # a refresh under way finishes: the interpreter must not
            thread.join()  # shut down under LanceDB's native threads (SIGABRT)
        service.close()


def _end_on_signals() -> None:
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers (a server run inside a test thread)

    def end(signum: int, _frame: object) -> None:
        remove_mark_folders()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, end)


def _log_to_stderr(quiet: bool) -> None:
    handler = logging.StreamHandler()  # stderr
    handler.setFormatter(logging.Formatter("%(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.WARNING if quiet else logging.INFO)
    LOG.propagate = False
