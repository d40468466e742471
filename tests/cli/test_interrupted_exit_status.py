"""A process that saw Ctrl-C exits with the code it asks for, even where CPython would end it
by SIGINT: when the KeyboardInterrupt passed through an exec of source text on its way to
the code that caught it, and the process was started with `python -m`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CTRL_C_IN_EXEC = (
    "import sys\n"
    "from ctxopt import interrupts\n"
    "def entry():\n"
    "    interrupts.install()\n"
    "    sys.stdout.write('partial output')\n"  # no newline: still in the buffer
    "    try:\n"
    "        exec('import os, signal, time\\n'\n"
    "             'os.kill(os.getpid(), signal.SIGINT)\\n'\n"
    "             'time.sleep(30)\\n')\n"
    "    except KeyboardInterrupt:\n"
    "        sys.stderr.write('ctxopt: error: interrupted')\n"
    "        sys.exit({code})\n"
)


def _run_module(folder: Path, name: str, body: str) -> subprocess.CompletedProcess[str]:
    (folder / f"{name}.py").write_text(body)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    return subprocess.run(
        [sys.executable, "-m", name], capture_output=True, text=True, env=env, timeout=60
    )


@pytest.mark.parametrize("code", [130, 0, 3])
def test_run_process_exits_with_the_code_asked_for(tmp_path: Path, code: int) -> None:
    body = CTRL_C_IN_EXEC.format(code=code) + "interrupts.run_process(entry)\n"
    run = _run_module(tmp_path, "wrapped", body)
    assert run.returncode == code
    assert run.stdout == "partial output"  # buffered output still reaches the reader
    assert run.stderr == "ctxopt: error: interrupted"


def test_without_ctrl_c_the_exit_is_python_s_own(tmp_path: Path) -> None:
    body = (
        "import atexit, sys\n"
        "from ctxopt import interrupts\n"
        "atexit.register(lambda: print('late exit hook', file=sys.stderr))\n"
        "def entry():\n"
        "    sys.exit(4)\n"
        "interrupts.run_process(entry)\n"
    )
    run = _run_module(tmp_path, "calm", body)
    assert run.returncode == 4
    assert run.stderr == "late exit hook\n"  # finalisation ran as usual
