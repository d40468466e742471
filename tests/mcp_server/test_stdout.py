"""stdout carries only the protocol: raw JSON-RPC lines in and out of `ctxopt mcp`, with
a refresh (parser worker processes) and a pack between them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import IO, Any

import pytest

from mcpclient import server_command

pytestmark = pytest.mark.slow


def _send(pipe: IO[str], message: dict[str, Any]) -> None:
    pipe.write(json.dumps(message) + "\n")
    pipe.flush()


def _answer(pipe: IO[str], seen: list[str], wanted: int) -> dict[str, Any]:
    """Read lines until the answer to request `wanted`; every line read is kept."""
    while line := pipe.readline():
        seen.append(line)
        message = json.loads(line)
        if message.get("id") == wanted:
            return message
    raise AssertionError(f"stdout closed before the answer to request {wanted}")


def test_stdout_holds_nothing_but_json_rpc(own_indexed_repo: Path, tmp_path: Path) -> None:
    repo = own_indexed_repo
    with (
        (tmp_path / "err").open("w") as err,
        subprocess.Popen(
            server_command(repo),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        ) as server,
    ):
        assert server.stdin is not None and server.stdout is not None
        seen: list[str] = []
        _send(
            server.stdin,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            },
        )
        assert _answer(server.stdout, seen, 1)["result"]["serverInfo"]["name"] == "ctxopt"
        _send(server.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        (repo / "inventory" / "extra.py").write_text("def print_me():\n    print('hi')\n")
        _send(
            server.stdin,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "pack", "arguments": {"task": "print me", "budget": 2000}},
            },
        )
        answer = _answer(server.stdout, seen, 2)
        server.stdin.close()
        seen.extend(server.stdout.readlines())
        assert server.wait(timeout=120) == 0
    assert answer["result"]["isError"] is False
    assert "def print_me" in answer["result"]["content"][0]["text"]
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in seen)
    assert "serving" in (tmp_path / "err").read_text()
