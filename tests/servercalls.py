"""Status and stop requests to a background server, as a test asks them."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from ctxopt.background.protocol import Lines, Request, send_request


def ask_server(sock: Path, op: str) -> dict[str, object]:
    """A status (or stop) request to the server at sock; {} when no server answers (and
    for a stop, which answers no figures)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(120)
            conn.connect(str(sock))
            send_request(conn, Request(op=op), [])
            line = Lines(conn).next()
    except OSError:
        return {}
    if line is None or op != "status":
        return {}
    answer = json.loads(line)
    assert isinstance(answer, dict)
    return answer
