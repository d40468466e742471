"""Where a background server listens: private to the user, one per code and library
environment, and what a server does when a caller's folder is gone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ctxopt.background.address import server_address
from ctxopt.background.borrowed import CannotTakeOver, borrowed_process
from ctxopt.background.protocol import Request
from ctxopt.config.environment import background_idle_seconds, background_wanted


def _runtime(tmp_path: Path, mode: int = 0o700) -> dict[str, str]:
    folder = tmp_path / "run"
    folder.mkdir(mode=0o700)
    (folder / "ctxopt").mkdir(mode=0o700)
    os.chmod(folder / "ctxopt", mode)
    return {"XDG_RUNTIME_DIR": str(folder), "HOME": "/home/someone", "LANG": "C.UTF-8"}


def test_the_socket_lives_in_a_folder_only_the_user_can_enter(tmp_path: Path) -> None:
    env = _runtime(tmp_path)
    address = server_address(env)
    assert address is not None
    assert address.socket.parent == tmp_path / "run" / "ctxopt"
    assert len(str(address.socket)) < 100  # within AF_UNIX's limit


def test_a_folder_others_can_enter_is_not_used(tmp_path: Path) -> None:
    assert server_address(_runtime(tmp_path, mode=0o755)) is None


def test_library_variables_pick_another_server_and_others_do_not(tmp_path: Path) -> None:
    env = _runtime(tmp_path)
    base = server_address(env)
    assert base is not None
    assert server_address({**env, "HF_HOME": "/elsewhere"}) != base
    assert server_address({**env, "CTXOPT_CACHE_DIR": "/elsewhere"}) != base
    assert server_address({**env, "PWD": "/tmp", "AWS_PROFILE": "x", "TERM": "dumb"}) == base
    assert server_address({**env, "CTXOPT_BACKGROUND": "1"}) == base


def test_the_switches(tmp_path: Path) -> None:
    assert background_wanted({})
    assert not background_wanted({"CTXOPT_BACKGROUND": "off"})
    assert not background_wanted({"CI": "true"})
    assert background_wanted({"CI": "true", "CTXOPT_BACKGROUND": "1"})
    assert background_wanted({"CI": "false"})
    assert background_idle_seconds({"CTXOPT_BACKGROUND_IDLE": "30"}) == 30
    assert background_idle_seconds({"CTXOPT_BACKGROUND_IDLE": "soon"}) == 900
    assert background_idle_seconds({"CTXOPT_BACKGROUND_IDLE": "-1"}) == 900


def test_a_caller_folder_that_is_gone_is_declined_and_nothing_changes(tmp_path: Path) -> None:
    before = (os.getcwd(), dict(os.environ))
    request = Request(op="run", argv=("query", "x"), cwd=str(tmp_path / "gone"), env=(("A", "1"),))
    read, write = os.pipe()
    try:
        with pytest.raises(CannotTakeOver), borrowed_process(request, [read, write, write]):
            raise AssertionError("entered")
    finally:
        os.close(read)
        os.close(write)
    assert (os.getcwd(), dict(os.environ)) == before


def test_a_call_borrows_and_gives_back_the_process_state(tmp_path: Path) -> None:
    before = (os.getcwd(), dict(os.environ), os.umask(0o022))
    os.umask(before[2])
    read, write = os.pipe()
    request = Request(
        op="run", argv=("pack", "t"), cwd=str(tmp_path), env=(("ONLY", "this"),), umask=0o077
    )
    import sys

    try:
        with borrowed_process(request, [read, write, write]):
            print("to the caller's stdout")
            seen = (os.getcwd(), dict(os.environ), sys.argv[1:])
            (tmp_path / "made").write_text("x")
    finally:
        os.close(write)
    with os.fdopen(read) as caller:
        assert caller.read() == "to the caller's stdout\n"
    assert seen == (str(tmp_path), {"ONLY": "this"}, ["pack", "t"])
    assert (tmp_path / "made").stat().st_mode & 0o777 == 0o600
    assert (os.getcwd(), dict(os.environ)) == before[:2]
    assert os.umask(before[2]) == before[2]


def test_a_call_rewrites_only_the_variables_that_differ(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each change of the environment rewrites the C library's copy, which a native thread
    may be reading: a caller whose environment differs in one variable costs two changes
    (it in, it back), not a clearing and refilling of every variable twice."""
    monkeypatch.setenv("CTXOPT_TEST_SHARED", "same")
    changes: list[str] = []
    monkeypatch.setattr(
        os, "putenv", lambda name, value: changes.append(f"set {os.fsdecode(name)}")
    )
    monkeypatch.setattr(os, "unsetenv", lambda name: changes.append(f"unset {os.fsdecode(name)}"))
    env = {**os.environ, "CTXOPT_TEST_CALLER": "1"}
    request = Request(op="run", argv=("query", "x"), cwd=str(tmp_path), env=tuple(env.items()))
    read, write = os.pipe()
    try:
        with borrowed_process(request, [read, write, write]):
            assert os.environ["CTXOPT_TEST_CALLER"] == "1"
    finally:
        os.close(read)
        os.close(write)
    assert "CTXOPT_TEST_CALLER" not in os.environ
    assert changes == ["set CTXOPT_TEST_CALLER", "unset CTXOPT_TEST_CALLER"]
