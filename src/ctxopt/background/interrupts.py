"""Ctrl-C for a command a background server runs: the caller passes it on (or goes away),
and the server's main thread gets KeyboardInterrupt just as the caller's own process would
have, so the command ends as an interrupted command ends (exit 130, no half-written index).
Outside a command the signal is ignored."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Iterator
from types import FrameType

from ctxopt import interrupts
from ctxopt.background.protocol import INTERRUPT, Lines


class Interrupts:
    """The server's SIGINT handler, armed only while a command runs."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed = False
        signal.signal(signal.SIGINT, self._handle)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        with self._lock:
            armed = self._armed
        if armed:
            interrupts.note()
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def watching(self, conn: socket.socket) -> Iterator[None]:
        """While the block runs: `interrupt` from the caller, or the caller going away,
        interrupts it."""
        with self._lock:
            self._armed = True
        listener = threading.Thread(
            target=self._listen, args=(conn,), name="ctxopt-interrupts", daemon=True
        )
        listener.start()
        try:
            yield
        finally:
            with self._lock:
                self._armed = False
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RD)
            listener.join(timeout=5)

    def _listen(self, conn: socket.socket) -> None:
        lines = Lines(conn)
        while True:
            try:
                line = lines.next()
            except OSError:
                line = None
            if line is not None and line != INTERRUPT:
                continue
            with self._lock:
                if self._armed:
                    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            return
