"""What `ctxopt query` and `ctxopt pack` try first: hand the call to a running background
server.  Without one, the command runs in this process as always, and a server is started
afterwards for the next call (`start_server`).  Standard library only: this runs before
anything heavy is imported.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import time
from dataclasses import dataclass
from types import FrameType

from ctxopt.background.address import Address, server_address
from ctxopt.background.protocol import (
    EXIT,
    INTERRUPT,
    OUTPUT,
    READY,
    STARTED,
    Lines,
    Request,
    send_request,
    send_streams,
)
from ctxopt.config.environment import DB_VARIABLE, background_wanted
from ctxopt.interrupts import INTERRUPTED_EXIT_CODE

COMMANDS = ("query", "pack", "index")
# `ctxopt index` goes to the server only as an update of an index built before, with these
# flags at most: a first build, --full, --watch or --wait belongs in a process of its own.
INDEX_FLAGS = frozenset({"--quiet", "-q", "--json"})
GRACE_SECONDS = 5.0  # after Ctrl-C, how long the server gets to end the command
POLL_SECONDS = 0.5
BUSY_SECONDS = 2.0  # a server that has not taken the call by then is busy: run it here


@dataclass(frozen=True)
class Outcome:
    code: int | None  # the command's exit code; None: run it here
    address: Address | None = None  # where a server may be started after running it here


def run_in_background(argv: list[str]) -> Outcome:
    """Run `ctxopt ARGV` on the background server when one is wanted, running and free;
    anything unexpected here means the command runs in this process instead."""
    try:
        return _try_server(argv)
    except Exception:  # e.g. this process's folder is gone
        return Outcome(None)


def _try_server(argv: list[str]) -> Outcome:
    if not argv or argv[0] not in COMMANDS or not background_wanted():
        return Outcome(None)
    if argv[0] == "index" and not _index_update(argv[1:]):
        return Outcome(None)
    if not hasattr(socket, "send_fds") or not _standard_streams_open():
        return Outcome(None)
    address = server_address()
    if address is None:
        return Outcome(None)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(address.socket))
    except OSError:
        sock.close()
        return Outcome(None, address)
    with sock:
        return _call(sock, argv, address)


def _standard_streams_open() -> bool:
    """Whether descriptors 0-2 are all open.  A process started with one closed (`>&-`) runs
    the command itself, which says so: the socket opened next would take that number, and the
    server, handed it as the caller's stdout, wrote the product into the protocol (lost, exit 0)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            return False
    return True


def _index_update(args: list[str]) -> bool:
    """`ctxopt index [FOLDER] [--quiet] [--json]` where FOLDER (default: here) holds an index
    built before in its default place."""
    positional = [arg for arg in args if arg not in INDEX_FLAGS]
    if len(positional) > 1 or any(arg.startswith("-") for arg in positional):
        return False
    if os.environ.get(DB_VARIABLE):
        return False
    folder = positional[0] if positional else os.curdir
    return os.path.isfile(os.path.join(folder, ".ctxopt", "committed.json"))


def _call(sock: socket.socket, argv: list[str], address: Address) -> Outcome:
    """The served command's exit code; none (run it here) when the server declines, is busy
    or is lost before the command used the caller's stdin or stdout (then with the address
    where a new server is started for the next calls)."""
    umask = os.umask(0o022)
    os.umask(umask)
    request = Request(
        op="run", argv=tuple(argv), cwd=os.getcwd(), env=tuple(os.environ.items()), umask=umask
    )
    lines = Lines(sock)
    try:
        sock.settimeout(BUSY_SECONDS)
        send_request(sock, request, [])
        if lines.next() != READY:
            return Outcome(None)  # declined: run it here
    except OSError:  # busy with another call (a long update), or gone: run it here
        return Outcome(None)
    try:
        sock.settimeout(None)
        send_streams(sock, [0, 1, 2])
        first = lines.next()
    except OSError:
        return Outcome(None)
    if first != STARTED:
        return Outcome(None)  # declined: run it here
    code = _wait(sock, lines)
    return Outcome(None, address) if code is None else Outcome(code)


def _wait(sock: socket.socket, lines: Lines) -> int | None:
    """The command's exit code; None when the server went away before the command read
    stdin or wrote stdout (nothing a second run would repeat).  Ctrl-C is passed on and the
    server gets GRACE_SECONDS to end the command; a second Ctrl-C stops waiting at once."""
    interrupted_at: float | None = None
    used_streams = False

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        nonlocal interrupted_at
        if interrupted_at is not None:
            raise KeyboardInterrupt
        interrupted_at = time.monotonic()
        with contextlib.suppress(OSError):
            sock.sendall(INTERRUPT + b"\n")

    def ended(code: int) -> int:
        """A call interrupted here ends as interrupted, whatever the server made of it: the
        command may have finished before the interrupt reached it (a reader draining the
        pipe lets the blocked write through just as Ctrl-C is passed on), and a process
        running the command itself would have ended with 130 too."""
        if interrupted_at is None or code == INTERRUPTED_EXIT_CODE:
            return code
        sys.stderr.write("ctxopt: error: interrupted\n")
        return INTERRUPTED_EXIT_CODE

    def lost() -> int | None:
        if interrupted_at is not None:
            return ended(1)
        if not used_streams:
            sys.stderr.write("ctxopt: the background server stopped; running the call here\n")
            return None
        sys.stderr.write("ctxopt: the background server stopped during the call; run it again\n")
        return 1

    previous = signal.signal(signal.SIGINT, on_interrupt)
    sock.settimeout(POLL_SECONDS)
    try:
        while True:
            try:
                line = lines.next()
            except TimeoutError:
                if interrupted_at is not None and time.monotonic() - interrupted_at > GRACE_SECONDS:
                    return ended(1)
                continue
            except (KeyboardInterrupt, OSError):
                return lost()
            if line is None:
                return lost()
            if line == OUTPUT:
                used_streams = True
            elif line.startswith(EXIT + b" "):
                return ended(int(line[len(EXIT) + 1 :]))
    finally:
        signal.signal(signal.SIGINT, previous)


def start_server(address: Address, argv: list[str]) -> None:
    """Start a background server for the next calls (it outlives this process); a second
    server for the same address exits at once, so racing callers are harmless."""
    try:
        _spawn(address)
    except Exception:  # no server this time; the command itself went well
        return
    quiet = any(flag in argv for flag in ("--quiet", "-q", "--json"))
    if not quiet and sys.stderr.isatty():
        sys.stderr.write(
            "ctxopt: started a background server for the next calls "
            "(it exits when idle; CTXOPT_BACKGROUND=0 turns it off)\n"
        )


def server_command() -> list[str]:
    """How the server is started. `python -m` puts the folder it starts in first on the
    module path, so it starts in its own private runtime folder, not the caller's (a
    repository's `json.py` or `multiprocessing/` would be imported in its place: code from a
    cloned repository run by `ctxopt query`); -P (Python 3.11+) leaves even that folder out,
    and passes on to the parsers' fork server."""
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    return [sys.executable, *safe, "-m", "ctxopt.background.server"]


def _spawn(address: Address) -> None:
    import subprocess

    log_fd = os.open(address.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(log_fd, "ab") as log:
        subprocess.Popen(
            [*server_command(), str(address.socket), os.getcwd()],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=address.socket.parent,  # never the caller's folder: see server_command
            start_new_session=True,
            close_fds=True,
        )
