"""Ctrl-C in a caller whose call a background server runs, against a scripted server on
the other end of a real socket pair: once the caller has passed an interrupt on, the call
ends with 130 and "interrupted" whatever the server answers (the command may have finished
before the interrupt reached it: a reader draining the pipe lets the blocked write through
just as Ctrl-C is passed on)."""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Iterator

import pytest

from ctxopt.background.client import _wait
from ctxopt.background.protocol import EXIT, INTERRUPT, OUTPUT, Lines


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    caller, server = socket.socketpair()
    with caller, server:
        yield caller, server


def _server(server: socket.socket, answer: bytes, *, interrupt: bool) -> threading.Thread:
    """Says the command wrote stdout; with interrupt, Ctrl-Cs the caller once its handler is
    in place and answers after the interrupt arrives; otherwise answers at once."""
    before = signal.getsignal(signal.SIGINT)

    def script() -> None:
        server.sendall(OUTPUT + b"\n")
        if interrupt:
            while signal.getsignal(signal.SIGINT) is before:
                threading.Event().wait(0.01)
            os.kill(os.getpid(), signal.SIGINT)
            lines = Lines(server)
            while lines.next() != INTERRUPT:
                pass
        server.sendall(EXIT + b" " + answer + b"\n")

    thread = threading.Thread(target=script, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("answer", [b"0", b"1"])
def test_a_call_the_server_finished_after_ctrl_c_ends_as_interrupted(
    pair: tuple[socket.socket, socket.socket], answer: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    caller, server = pair
    thread = _server(server, answer, interrupt=True)
    code = _wait(caller, Lines(caller))
    thread.join(timeout=10)
    assert code == 130
    assert capsys.readouterr().err.splitlines() == ["ctxopt: error: interrupted"]


def test_a_call_the_server_ended_as_interrupted_says_so_once(
    pair: tuple[socket.socket, socket.socket], capsys: pytest.CaptureFixture[str]
) -> None:
    caller, server = pair
    thread = _server(server, b"130", interrupt=True)
    code = _wait(caller, Lines(caller))
    thread.join(timeout=10)
    assert code == 130
    assert capsys.readouterr().err == ""  # the server's command said "interrupted" itself


@pytest.mark.parametrize("answer", [0, 1, 3])
def test_without_ctrl_c_the_servers_exit_code_is_the_calls(
    pair: tuple[socket.socket, socket.socket], answer: int, capsys: pytest.CaptureFixture[str]
) -> None:
    caller, server = pair
    thread = _server(server, str(answer).encode(), interrupt=False)
    assert _wait(caller, Lines(caller)) == answer
    thread.join(timeout=10)
    assert capsys.readouterr().err == ""
