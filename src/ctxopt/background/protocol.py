"""The messages between a `ctxopt` process and its background server, over a Unix socket.

A call: one length-prefixed JSON request.  When the server takes it up it answers `ready`,
and only then does the caller send its stdin, stdout and stderr (one byte with the three
descriptors attached, SCM_RIGHTS): descriptors sent earlier would wait in the socket of a
busy server, keeping the caller's pipes open after the caller gave up and ran the command
itself.  The server answers `started`, or `declined` when the caller should run the command
itself; after `started`, the caller may send `interrupt` (Ctrl-C) and the server ends with
`exit CODE`.  Before the command first reads the caller's stdin or writes its stdout the server
says `output`: a server lost before that (killed, crashed) leaves nothing a second run would
repeat, so the caller runs the command itself.  Lines are ASCII.
"""

from __future__ import annotations

import json
import socket
import struct
from dataclasses import dataclass

READY = b"ready"
STARTED = b"started"
DECLINED = b"declined"
INTERRUPT = b"interrupt"
EXIT = b"exit"
OUTPUT = b"output"  # the command is about to read stdin or write stdout
HEADER = struct.Struct(">I")
MAX_REQUEST = 1 << 20


@dataclass(frozen=True)
class Request:
    op: str  # "run", "status" or "stop"
    argv: tuple[str, ...] = ()
    cwd: str = ""
    env: tuple[tuple[str, str], ...] = ()
    umask: int = 0o022

    def encode(self) -> bytes:
        body = json.dumps(
            {
                "op": self.op,
                "argv": list(self.argv),
                "cwd": self.cwd,
                "env": dict(self.env),
                "umask": self.umask,
            }
        ).encode("utf-8", "surrogateescape")
        return HEADER.pack(len(body)) + body

    @classmethod
    def decode(cls, body: bytes) -> Request:
        data = json.loads(body.decode("utf-8", "surrogateescape"))
        return cls(
            op=str(data["op"]),
            argv=tuple(str(a) for a in data.get("argv", ())),
            cwd=str(data.get("cwd", "")),
            env=tuple((str(k), str(v)) for k, v in dict(data.get("env", {})).items()),
            umask=int(data.get("umask", 0o022)),
        )


def send_request(sock: socket.socket, request: Request, fds: list[int]) -> None:
    data = request.encode()
    sent = socket.send_fds(sock, [data], fds) if fds else sock.send(data)
    if sent < len(data):
        sock.sendall(data[sent:])


def receive_request(sock: socket.socket) -> tuple[Request, list[int]]:
    """A request and the descriptors sent with it; ValueError for a malformed one."""
    data, fds, _, _ = socket.recv_fds(sock, 65536, 3)
    while len(data) < HEADER.size:
        more = sock.recv(65536)
        if not more:
            raise ValueError("the request ended early")
        data += more
    (size,) = HEADER.unpack_from(data)
    if size > MAX_REQUEST:
        raise ValueError("the request is too large")
    while len(data) < HEADER.size + size:
        more = sock.recv(65536)
        if not more:
            raise ValueError("the request ended early")
        data += more
    return Request.decode(data[HEADER.size : HEADER.size + size]), list(fds)


def send_streams(sock: socket.socket, fds: list[int]) -> None:
    """The caller's descriptors, once the server is ready for them."""
    socket.send_fds(sock, [b"F"], fds)


def take_streams(sock: socket.socket) -> list[int]:
    """Ask the caller for its descriptors and take them ([] when it is gone)."""
    sock.sendall(READY + b"\n")
    _, fds, _, _ = socket.recv_fds(sock, 1, 3)
    return list(fds)


class Lines:
    """Reads newline-ended messages from a socket."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._buffer = b""

    def next(self) -> bytes | None:
        """The next line without its newline; None at the end of the stream."""
        while b"\n" not in self._buffer:
            more = self._sock.recv(4096)
            if not more:
                return None
            self._buffer += more
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line
