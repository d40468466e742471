"""The warm state of the repositories a background server has answered for: a
`RepoService` each (open reader, kept rows, file watcher), the most recent few kept."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from ctxopt.app.warm import WarmCall
from ctxopt.config.settings import Settings
from ctxopt.mcp_server.service import RepoService

KEPT_REPOSITORIES = 2


class Repositories:
    """A `WarmSource` (see `app.warm`) over every repository the server has answered for."""

    def __init__(self, kept: int = KEPT_REPOSITORIES) -> None:
        self._kept = kept
        self._services: OrderedDict[tuple[str, str], RepoService] = OrderedDict()

    @contextmanager
    def call(self, settings: Settings) -> Iterator[WarmCall]:
        key = (str(settings.root), str(settings.db_path))
        service = self._services.get(key)
        if service is None:
            # Rows are loaded between calls, not on a thread: a call's end puts the server's
            # environment back (`borrowed`), and Lance reading it on another thread meanwhile
            # crashed the server (getenv racing the environment's rewrite).
            service = RepoService(settings, rows_on_thread=False)
            self._services[key] = service
            while len(self._services) > self._kept:
                _, oldest = self._services.popitem(last=False)
                oldest.close()
        self._services.move_to_end(key)
        with service.call(settings) as warm:
            yield warm

    def load_ahead(self) -> None:
        """Load what the last call's refresh left for the next call (see RepoService)."""
        for service in list(self._services.values()):
            service.load_ahead()

    def names(self) -> list[str]:
        return [root for root, _ in self._services]

    def close(self) -> None:
        for service in self._services.values():
            service.close()
        self._services.clear()
