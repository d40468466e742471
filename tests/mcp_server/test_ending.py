"""However `ctxopt mcp` ends (stdin closed, SIGTERM, SIGINT), its watcher's folder goes."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from mcpclient import server_command

WAIT_S = 120  # for the warm-up to start the watcher on a loaded machine


def started_server(repo: Path, tmp: Path) -> subprocess.Popen[bytes]:
    """The real server with its own temporary folder, once its watcher's folder is there."""
    server = subprocess.Popen(
        server_command(repo, "--quiet"),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    deadline = time.monotonic() + WAIT_S
    while not list(tmp.glob("ctxopt-watch-*")):
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail("the server never started its file watcher")
        time.sleep(0.05)
    return server


@pytest.mark.parametrize(
    ("ending", "code"),
    [("SIGTERM", -signal.SIGTERM), ("SIGINT", -signal.SIGINT), ("stdin", 0)],
)
def test_the_watcher_folder_goes_however_the_server_ends(
    indexed_repo: Path, tmp_path: Path, ending: str, code: int
) -> None:
    server = started_server(indexed_repo, tmp_path)
    assert server.stdin is not None
    if ending == "stdin":
        server.stdin.close()
    else:
        server.send_signal(getattr(signal, ending))
    try:
        assert server.wait(WAIT_S) == code
    finally:
        server.kill()
    assert list(tmp_path.glob("ctxopt-watch-*")) == []


def test_stdin_closed_during_the_first_refresh_ends_cleanly(own_indexed_repo: Path) -> None:
    """The client goes while the warm-up refreshes a changed file: the refresh finishes and
    the server exits 0 (it used to abort, SIGABRT, in LanceDB's threads at shutdown)."""
    target = next(own_indexed_repo.rglob("*.py"))
    for attempt in range(3):
        with target.open("a", encoding="utf-8") as handle:
            handle.write(f"\n# edit {attempt}\n")
        done = subprocess.run(
            server_command(own_indexed_repo),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=WAIT_S,
        )
        assert done.returncode == 0, done.stderr[-500:]
        assert "refreshing the index: 1 file changed" in done.stderr
