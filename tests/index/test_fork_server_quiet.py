"""A parser worker whose parent stops before handing it its start-up data (Ctrl-C reaching
`ctxopt index` while a worker starts) ends quietly: before, the fork server's child printed
Python's traceback (`EOFError: Ran out of input`) on the caller's stderr, under ctxopt's own
one-line `interrupted` message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# What ctxopt's parent does when Ctrl-C lands between the fork server forking a worker and
# the parent writing the worker's start-up data: it never writes it.
PARENT_GONE_MID_START = """
import os
from multiprocessing import forkserver
from ctxopt.index import file_jobs
file_jobs.start_server(file_jobs.worker_context())
sentinel, data = forkserver._forkserver.connect_to_new_process([])
pid = forkserver.read_signed(sentinel)
os.close(data)
status = forkserver.read_signed(sentinel)
print(pid > 0, status)
"""

RAISES = """
import sys
import ctxopt.index.fork_server_quiet
sys.excepthook({kind}, {kind}("x"), None)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2] / "src")])}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_worker_whose_parent_never_sends_its_data_ends_without_a_traceback() -> None:
    done = _run(PARENT_GONE_MID_START)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "True"  # a worker was forked, and ended
    assert "Traceback" not in done.stderr and "EOFError" not in done.stderr, done.stderr


def test_other_errors_still_show() -> None:
    quiet = _run(RAISES.format(kind="EOFError"))
    shown = _run(RAISES.format(kind="ValueError"))
    assert quiet.stderr == ""
    assert "ValueError: x" in shown.stderr
