"""The background server process: `python -m ctxopt.background.server SOCKET`.

It takes the address's lock (a second server for the same address exits at once), listens
on the socket (mode 0600, in the user's private folder), warms up on the repository it was
started from, then runs one call at a time until it has been idle for
$CTXOPT_BACKGROUND_IDLE seconds (default 900), is told to stop, gets SIGTERM, or finds its
socket gone or replaced.  Each call runs the command-line code itself (`ctxopt.cli.main`)
with the caller's streams, directory and environment, and the warm index state lent.
"""

from __future__ import annotations

import contextlib
import faulthandler
import fcntl
import json
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from types import FrameType

from ctxopt.app.warm import lend
from ctxopt.background.borrowed import (
    CannotTakeOver,
    borrowed_process,
    close_all,
    flush_output,
)
from ctxopt.background.interrupts import Interrupts
from ctxopt.background.protocol import (
    DECLINED,
    EXIT,
    OUTPUT,
    STARTED,
    Request,
    receive_request,
    take_streams,
)
from ctxopt.background.repositories import Repositories
from ctxopt.config.environment import background_idle_seconds
from ctxopt.index.file_jobs import fork_server_pid
from ctxopt.interrupts import INTERRUPTED_EXIT_CODE
from ctxopt.mcp_server.watcher import remove_mark_folders

LOG = logging.getLogger("ctxopt.background")
TICK_SECONDS = 2.0
HANDSHAKE_SECONDS = 10.0
WARM_UP_TASK = "how is this repository organised"
MAX_RESIDENT_BYTES = 1536 << 20


class Server:
    def __init__(self, listener: socket.socket, path: Path, idle_seconds: float) -> None:
        self._listener = listener
        self._path = path
        self._inode = os.stat(path).st_ino
        self._idle_seconds = idle_seconds
        self._repositories = Repositories()
        self._interrupts = Interrupts()
        self._started = time.time()
        self.served = 0
        self._fork_server: int | None = None

    def warm_up(self, root: Path) -> None:
        """Load the modules, models and index state a pack needs, on the repository the
        server was started from (nothing is printed; a problem is only logged)."""
        from ctxopt.app.index import start_parsers
        from ctxopt.app.pack import refresh_then_pack
        from ctxopt.cli import build_app
        from ctxopt.config.settings import load_settings
        from ctxopt.pack.api import PackOptions

        build_app(["query"]), build_app(["pack"])
        try:
            settings = load_settings(root)
            # The parsers' fork server outlives calls: started now, it holds this process's
            # own stdio, never a caller's (whose pipes would then never close).
            start_parsers(settings)
            with lend(self._repositories):
                refresh_then_pack(settings, PackOptions(task=WARM_UP_TASK, budget=2000))
            self._repositories.load_ahead()
        except Exception as exc:
            LOG.info("warm-up on %s skipped: %s", root, exc)
        self._fork_server = fork_server_pid()

    def serve(self) -> None:
        self._listener.settimeout(TICK_SECONDS)
        last_call = time.monotonic()
        while True:
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                if time.monotonic() - last_call > self._idle_seconds or not self._still_ours():
                    return
                continue
            with conn:
                conn.settimeout(HANDSHAKE_SECONDS)  # a caller that sends nothing is dropped
                if not self._handle(conn):
                    return
            last_call = time.monotonic()

    def close(self) -> None:
        self._repositories.close()
        remove_mark_folders()
        with contextlib.suppress(OSError):
            if self._still_ours():
                self._path.unlink()
        self._listener.close()

    def _still_ours(self) -> bool:
        try:
            return os.stat(self._path).st_ino == self._inode
        except OSError:
            return False

    def _handle(self, conn: socket.socket) -> bool:
        """One connection; False when the server should stop."""
        try:
            request, fds = receive_request(conn)
        except (OSError, ValueError) as exc:
            LOG.info("a malformed call: %s", exc)
            return True
        try:
            if request.op == "status":
                conn.sendall(json.dumps(self._status()).encode() + b"\n")
                return True
            if request.op == "stop":
                conn.sendall(b"stopping\n")
                return False
            if request.op != "run" or fds:
                conn.sendall(DECLINED + b"\n")
                return True
            fds = take_streams(conn)
            if len(fds) != 3:
                conn.sendall(DECLINED + b"\n")
                return True
            self._run(conn, request, fds)
            if _resident_bytes() > MAX_RESIDENT_BYTES:
                LOG.info("%d MB resident after a call; stopping", _resident_bytes() >> 20)
                return False  # a large update's memory is not kept for the next calls
            if fork_server_pid() != self._fork_server:
                LOG.info("the parsers' fork server was started during a call; stopping")
                return False  # it holds that caller's stdio: it must end with this process
        except OSError as exc:  # the caller went away
            LOG.info("call ended early: %s", exc)
        finally:
            close_all(fds)
        return True

    def _run(self, conn: socket.socket, request: Request, fds: list[int]) -> None:
        started = time.monotonic()
        command = request.argv[0] if request.argv else "?"
        LOG.info("call started: %s", command)
        code = 1
        try:
            with borrowed_process(request, fds, lambda: _say(conn, OUTPUT)):
                conn.settimeout(None)  # from here the caller may wait as long as the call runs
                conn.sendall(STARTED + b"\n")
                try:
                    with self._interrupts.watching(conn), lend(self._repositories):
                        try:
                            code = run_command()
                        finally:
                            flush_output()
                except KeyboardInterrupt:
                    code = INTERRUPTED_EXIT_CODE
        except CannotTakeOver as exc:  # e.g. the caller's folder is gone: it runs the command
            LOG.info("declined: %s", exc)
            conn.sendall(DECLINED + b"\n")
            return
        except KeyboardInterrupt:  # one that landed as the command ended
            code = INTERRUPTED_EXIT_CODE
        self.served += 1
        LOG.info("%s: exit %d in %.3f s", command, code, time.monotonic() - started)
        try:
            conn.sendall(EXIT + b" %d\n" % code)
        finally:
            self._load_ahead()

    def _load_ahead(self) -> None:
        """The rows of an index the call refreshed, loaded once the caller has its answer and
        the server's own environment is back (a problem is only logged)."""
        try:
            self._repositories.load_ahead()
        except Exception as exc:
            LOG.info("loading the refreshed index's rows ahead failed: %s", exc)

    def _status(self) -> dict[str, object]:
        return {
            "pid": os.getpid(),
            "served": self.served,
            "since": self._started,
            "repositories": self._repositories.names(),
        }


def _say(conn: socket.socket, message: bytes) -> None:
    """One line to the caller; a caller gone is seen when the call ends."""
    with contextlib.suppress(OSError):
        conn.sendall(message + b"\n")


def _resident_bytes() -> int:
    """This process's resident memory (0 where /proc cannot tell)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def run_command() -> int:
    """`ctxopt.cli.main` on the borrowed argv and streams: its exit code."""
    from ctxopt.cli import main

    try:
        main()
    except SystemExit as exc:
        return _exit_code(exc.code)
    except KeyboardInterrupt:
        sys.stderr.write("ctxopt: interrupted\n")
        return INTERRUPTED_EXIT_CODE
    return 0


def _exit_code(code: object) -> int:
    """The exit status a process ending with SystemExit(code) has (0-255)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write(f"{code}\n")
    return 1


def _listen(path: Path) -> socket.socket | None:
    """The listening socket at path, or None while another server holds the lock."""
    lock = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock)
        return None  # the lock stays held (its descriptor open) for the server's life
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # a socket left by a server that died
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        listener.bind(str(path))
    finally:
        os.umask(old)
    listener.listen(16)
    return listener


def main(argv: list[str]) -> int:
    # The log keeps a descriptor of its own: during a call, descriptor 2 is the caller's.
    log = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="backslashreplace")
    logging.basicConfig(
        stream=log, level=logging.INFO, format="%(asctime)s %(process)d %(message)s"
    )
    # A crash in native code (Lance, Arrow, the file watcher) leaves its threads' stacks in
    # the log, where a dead server otherwise leaves nothing to tell why it stopped.
    faulthandler.enable(file=log, all_threads=True)
    path = Path(argv[0])
    listener = _listen(path)
    if listener is None:
        return 0
    server = Server(listener, path, background_idle_seconds())

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    LOG.info("serving at %s", path)
    try:
        root = Path(argv[1]) if len(argv) > 1 else Path.cwd()  # the folder of the first call
        with contextlib.suppress(OSError):
            os.chdir(root)
        server.warm_up(root)
        os.chdir("/")  # hold no caller's folder open between calls
        server.serve()
    finally:
        server.close()
        LOG.info("stopped after %d calls", server.served)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
