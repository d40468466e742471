"""A served call says when it first reads the caller's stdin or writes its stdout: before
that, a server lost mid-call leaves nothing a second run would repeat, so the caller runs
the command itself (`ctxopt.launch` against a stand-in server that says `started` and is
gone); after it, the caller reports the loss instead of printing the product twice."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clitools import run_cli
from ctxopt.background.address import server_address
from ctxopt.background.borrowed import borrowed_process
from ctxopt.background.protocol import (
    OUTPUT,
    STARTED,
    Request,
    receive_request,
    take_streams,
)
from helpers import commit_all, init_repo, write_files
from servercalls import ask_server

TASK = "where is the discount of a basket applied"


def _borrow(
    tmp_path: Path, action: Callable[[], object], stdin: bytes = b""
) -> tuple[int, str, str]:
    """Run action with the caller's streams borrowed: how many times the first use was
    announced, and what reached the caller's stdout and stderr."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    os.write(in_write, stdin)
    os.close(in_write)
    announced: list[int] = []
    request = Request(op="run", argv=("query", "x"), cwd=str(tmp_path))
    try:
        with borrowed_process(
            request, [in_read, out_write, err_write], lambda: announced.append(1)
        ):
            action()
    finally:
        for fd in (in_read, out_write, err_write):
            os.close(fd)
    with os.fdopen(out_read) as out, os.fdopen(err_read) as err:
        return len(announced), out.read(), err.read()


def test_progress_on_stderr_is_not_a_use(tmp_path: Path) -> None:
    count, out, err = _borrow(tmp_path, lambda: sys.stderr.write("indexing 3 files\n"))
    assert (count, out, err) == (0, "", "indexing 3 files\n")


def test_the_first_write_to_stdout_is_announced_once(tmp_path: Path) -> None:
    count, out, _ = _borrow(tmp_path, lambda: (sys.stdout.write(""), print("a"), print("b")))
    assert (count, out) == (1, "a\nb\n")


def test_reading_stdin_is_a_use(tmp_path: Path) -> None:
    count, out, _ = _borrow(tmp_path, lambda: sys.stderr.write(sys.stdin.read()), stdin=b"task")
    assert count == 1
    assert out == ""


def test_asking_for_the_binary_stdout_is_a_use(tmp_path: Path) -> None:
    count, out, _ = _borrow(tmp_path, lambda: (sys.stdout.buffer.write(b"raw"), sys.stdout.flush()))
    assert (count, out) == (1, "raw")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("first_use") / "shop"
    root.mkdir()
    init_repo(root)
    write_files(
        root,
        {
            "shop/basket.py": "def apply_basket_discount(basket, rate):\n"
            '    """Apply the discount rate to every line of the basket."""\n'
            "    return [line * (1 - rate) for line in basket]\n",
            "shop/stock.py": "def reserve_stock(item, count):\n    return item.take(count)\n",
        },
    )
    commit_all(root, "shop")
    assert run_cli("index", str(root), "--quiet").code == 0
    return root


def _env(tmp_path: Path) -> dict[str, str]:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700, exist_ok=True)
    return {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "CTXOPT_BACKGROUND": "1",
        "CTXOPT_BACKGROUND_IDLE": "5",
    }


@pytest.fixture
def stand_in(tmp_path: Path) -> Iterator[tuple[dict[str, str], list[bytes]]]:
    """A server that takes one call, says the lines of the list the test fills, and is
    gone (as a crashed server is: its end of the socket closes)."""
    env = _env(tmp_path)
    address = server_address(env)
    assert address is not None
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(address.socket))
    listener.listen(1)
    says: list[bytes] = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            receive_request(conn)
            for fd in take_streams(conn):
                os.close(fd)
            for line in says:
                conn.sendall(line + b"\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield env, says
    listener.close()
    thread.join(timeout=10)
    _stop(address.socket, wait=STARTED in says and OUTPUT not in says)


def _stop(sock: Path, *, wait: bool) -> None:
    """Stop the server the caller started after running the call itself (waiting for it
    when one is expected: the caller starts one only after a lost server)."""
    deadline = time.monotonic() + (120 if wait else 0)
    status = ask_server(sock, "status")
    while not status and time.monotonic() < deadline:
        time.sleep(0.2)
        status = ask_server(sock, "status")
    if status:
        ask_server(sock, "stop")
    assert status or not wait, "no server was started after the lost one"


def _query(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "ctxopt.launch", "query", TASK, "--json"],
        cwd=repo,
        env=env,
        capture_output=True,
        timeout=300,
    )


def test_a_server_lost_before_any_output_leaves_the_call_to_the_caller(
    repo: Path, stand_in: tuple[dict[str, str], list[bytes]]
) -> None:
    env, says = stand_in
    says.append(STARTED)
    done = _query(repo, env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["name"] == "apply_basket_discount"
    assert b"the background server stopped; running the call here" in done.stderr


def test_a_server_lost_after_it_began_the_output_is_reported(
    repo: Path, stand_in: tuple[dict[str, str], list[bytes]]
) -> None:
    env, says = stand_in
    says.extend([STARTED, OUTPUT])
    done = _query(repo, env)
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode().strip().splitlines()[-1] == (
        "ctxopt: the background server stopped during the call; run it again"
    )
