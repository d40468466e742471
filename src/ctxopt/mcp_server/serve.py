"""Serving one repository over stdio until the client closes the connection.

stdout carries only the protocol: the SDK's stdio transport points file descriptor 1 at
stderr while it serves (so stray prints and child processes miss the wire), and ctxopt's
messages go to stderr through `logging`.  The warm-up runs on a thread once the transport
is up, so `initialize` is answered at once and the first tool call waits for it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from ctxopt.config.settings import Settings
from ctxopt.mcp_server.service import RepoService
from ctxopt.mcp_server.tools import build_server

LOG = logging.getLogger("ctxopt.mcp")


def serve(settings: Settings, *, quiet: bool = False) -> None:
    """Run the server for settings.root until stdin closes."""
    _log_to_stderr(quiet)
    service = RepoService(settings, notify=LOG.info)

    @asynccontextmanager
    async def warm(_server: Any) -> AsyncIterator[None]:
        threading.Thread(target=service.warm_up, name="ctxopt-warm-up", daemon=True).start()
        yield

    LOG.info("ctxopt mcp: serving %s (index %s) over stdio", settings.root, settings.db_path)
    try:
        build_server(service, lifespan=warm).run("stdio")
    finally:
        service.close()


def _log_to_stderr(quiet: bool) -> None:
    handler = logging.StreamHandler()  # stderr
    handler.setFormatter(logging.Formatter("%(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.WARNING if quiet else logging.INFO)
    LOG.propagate = False
