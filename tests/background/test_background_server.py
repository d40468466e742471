"""The background server, end to end: the real `ctxopt` entry point (`python -m
ctxopt.launch`) in subprocesses, a real indexed git repository, the real default model.

The first `query` runs in its own process and starts a server; the next calls are served
by it and must be indistinguishable from running in-process: the same stdout bytes, the
same stderr, the same exit code, a file edited between calls seen, Ctrl-C ending the call
with 130 and leaving the server (and the index) usable.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clitools import run_cli
from helpers import commit_all, init_repo, write_files
from servercalls import ask_server

pytestmark = pytest.mark.slow

TASK = "where is the stock of an item reserved"


def module(i: int) -> str:
    functions = "\n\n".join(
        f"def reserve_stock_{i}_{j}(item, count):\n"
        f'    """Reserve count units of item {i}.{j} in warehouse {j}."""\n'
        f"    level = item.levels[{j}]\n"
        f"    if level < count:\n"
        f"        raise ValueError('not enough stock for item {i}.{j}')\n"
        f"    item.levels[{j}] = level - count\n"
        f"    return item.levels[{j}]\n"
        for j in range(6)
    )
    return f'"""Stock module {i}."""\n\n{functions}\n'


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("background") / "shop"
    root.mkdir()
    init_repo(root)
    write_files(root, {f"shop/stock_{i}.py": module(i) for i in range(120)})
    commit_all(root, "stock modules")
    result = run_cli("index", str(root), "--quiet")
    assert result.code == 0, result.err
    return root


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Path]:
    """A private runtime folder for this test's servers; they are stopped afterwards."""
    folder = tmp_path / "run"
    folder.mkdir(mode=0o700)
    yield folder
    for sock in (folder / "ctxopt").glob("*.sock"):
        pid = ask_server(sock, "status").get("pid") if sock.exists() else None
        ask_server(sock, "stop")
        if isinstance(pid, int):
            _wait_gone(pid)


def _env(runtime: Path, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "CTXOPT_BACKGROUND": "1",
        "CTXOPT_BACKGROUND_IDLE": "120",
        "NO_COLOR": "1",
        "COLUMNS": "200",
        **extra,
    }


def _ctxopt(*args: str, repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "ctxopt.launch", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        timeout=300,
    )


def _sockets(runtime: Path) -> list[Path]:
    return sorted((runtime / "ctxopt").glob("*.sock"))


def _server(runtime: Path) -> Path:
    """The one server's socket, once it answers (after its warm-up)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = _sockets(runtime)
        if found and ask_server(found[0], "status"):
            assert len(found) == 1
            return found[0]
        time.sleep(0.1)
    raise AssertionError("no background server started")


def _served(sock: Path) -> int:
    """The calls the server at sock has served; when it does not answer, the failure shows
    its log (why it stopped, or how far it got)."""
    served = ask_server(sock, "status").get("served")
    assert isinstance(served, int), (
        f"no answer from the server ({_server_processes(sock)}); its log:\n{_log(sock)}"
    )
    return served


def _server_processes(sock: Path) -> str:
    """The processes serving at sock, with their state: a server that died leaves none, one
    that hangs shows its state (a native crash is in the log, through faulthandler)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(sock).encode() in argv:
            found.append(f"pid {proc.name} state {state}")
    return ", ".join(found) or "no process serves it"


def _log(sock: Path) -> str:
    try:
        return sock.with_suffix(".log").read_text(encoding="utf-8", errors="replace")[-4000:]
    except OSError as exc:
        return f"(unreadable: {exc})"


def _wait_gone(pid: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_calls_after_the_first_are_served_with_the_same_output(repo: Path, runtime: Path) -> None:
    env = _env(runtime)
    first = _ctxopt("query", TASK, "--json", repo=repo, env=env)
    assert first.returncode == 0, first.stderr
    sock = _server(runtime)
    assert _served(sock) == 0  # the first call ran in its own process
    assert sock.stat().st_mode & 0o777 == 0o600
    in_process = _env(runtime, CTXOPT_BACKGROUND="0")
    calls = [
        ("query", TASK, "--json"),
        ("query", TASK, "--top", "3"),
        ("pack", TASK, "--budget", "3000"),
        ("pack", TASK, "--budget", "3000", "--format", "xml", "--line-numbers"),
        ("pack", TASK, "--budget", "5"),  # an error: one line, exit code kept
        ("query", TASK, "--top", "-1"),  # a usage error
        ("pack", "--no-such-option"),
        ("pack", TASK, "--budget", "5", "--json"),  # the error as the JSON value on stdout
        ("query", TASK, "--top", "-1", "--json"),
    ]
    for count, args in enumerate(calls, start=1):
        served = _ctxopt(*args, repo=repo, env=env)
        here = _ctxopt(*args, repo=repo, env=in_process)
        assert _served(sock) == count, args
        assert served.returncode == here.returncode, (args, served.stderr)
        assert served.stdout == here.stdout, args
        assert served.stderr == here.stderr, args
    assert _ctxopt("pack", TASK, "--budget", "5", repo=repo, env=env).returncode != 0
    out = tmp_out = repo.parent / "prompt.md"
    done = _ctxopt("pack", TASK, "--budget", "2000", "-o", "../prompt.md", repo=repo, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    assert "reserve_stock_" in out.read_text(encoding="utf-8")  # relative to the caller's folder
    tmp_out.unlink()


def test_a_file_changed_between_calls_is_seen(repo: Path, runtime: Path) -> None:
    env = _env(runtime)
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    added = repo / "shop" / "refunds.py"
    added.write_text(
        "def refund_cancelled_order_payment(order):\n"
        '    """Give back the payment of a cancelled order."""\n'
        "    return order.payment.refund()\n",
        encoding="utf-8",
    )
    try:
        done = _ctxopt("query", "refund a cancelled order payment", "--json", repo=repo, env=env)
        assert done.returncode == 0, done.stderr
        names = [hit["name"] for hit in json.loads(done.stdout)]
        assert "refund_cancelled_order_payment" in names
        assert _served(sock) == 1
    finally:
        added.unlink()
        run_cli("index", str(repo), "--quiet")


def test_ctrl_c_ends_a_served_call_and_the_server_stays(repo: Path, runtime: Path) -> None:
    """A pack whose stdout nobody reads blocks the server on a full pipe; Ctrl-C to the
    caller ends the call with 130 and "interrupted", and the next call is served."""
    env = _env(runtime)
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    caller = _held_call(repo, env, sock)
    try:
        time.sleep(1.0)
        assert caller.poll() is None, "the pack ended although its output was never read"
        caller.send_signal(signal.SIGINT)
        _, err = caller.communicate(timeout=30)
    finally:
        caller.kill()
    assert caller.returncode == 130
    assert err.decode().strip().splitlines()[-1] == "ctxopt: error: interrupted"
    again = _ctxopt("query", TASK, "--json", repo=repo, env=env)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)
    assert _served(sock) == 2


def _held_call(repo: Path, env: dict[str, str], sock: Path) -> subprocess.Popen[bytes]:
    """A served pack whose stdout nobody reads: once its call has begun, the server is
    blocked writing to the full pipe."""
    caller = subprocess.Popen(
        [sys.executable, "-m", "ctxopt.launch", "pack", TASK, "--budget", "60000"],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,  # never read: the pipe fills
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while _log_calls(sock) == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    return caller


def _log_calls(sock: Path) -> int:
    """Calls the server has started (its status answers only between calls, so the
    caller's stderr would not do: the call is seen through the server's open sockets)."""
    status = sock.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    return status.count("call started")


def test_a_reader_that_stops_early_ends_the_call_quietly(repo: Path, runtime: Path) -> None:
    env = _env(runtime)
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    caller = subprocess.Popen(
        [sys.executable, "-m", "ctxopt.launch", "pack", TASK, "--budget", "60000"],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert caller.stdout is not None and caller.stderr is not None
    head = caller.stdout.read(100)
    caller.stdout.close()
    err = caller.stderr.read()
    assert caller.wait(timeout=60) == 0
    assert head.startswith(b"# Context")
    assert err == b""
    assert _served(sock) == 1


def test_an_idle_server_exits_and_removes_its_socket(repo: Path, runtime: Path) -> None:
    env = _env(runtime, CTXOPT_BACKGROUND_IDLE="1")
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    pid = ask_server(sock, "status")["pid"]
    assert isinstance(pid, int)
    assert _wait_gone(pid, seconds=60)
    assert not sock.exists()


@pytest.mark.parametrize("switch", [{"CTXOPT_BACKGROUND": "0"}, {"CI": "true"}])
def test_switched_off_no_server_starts(repo: Path, runtime: Path, switch: dict[str, str]) -> None:
    env = {**_env(runtime), **switch}
    if "CI" in switch:
        env.pop("CTXOPT_BACKGROUND")
    for _ in range(2):
        done = _ctxopt("query", TASK, "--json", repo=repo, env=env)
        assert done.returncode == 0, done.stderr
    time.sleep(1.0)
    assert _sockets(runtime) == []


def test_other_commands_never_start_a_server(repo: Path, runtime: Path) -> None:
    env = _env(runtime)
    assert _ctxopt("stats", "--json", repo=repo, env=env).returncode == 0
    assert _ctxopt("query", TASK, "--top", "0", repo=repo, env=env).returncode != 0  # failed
    time.sleep(1.0)
    assert _sockets(runtime) == []


def test_an_index_update_is_served_and_a_first_build_is_not(
    repo: Path, runtime: Path, tmp_path: Path
) -> None:
    env = _env(runtime)
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    target = repo / "shop" / "stock_7.py"
    original = target.read_text(encoding="utf-8")
    target.write_text(original + "\n\ndef audit_stock_levels():\n    return 7\n", encoding="utf-8")
    try:
        done = _ctxopt("index", "--json", repo=repo, env=env)
        assert done.returncode == 0, done.stderr
        figures = json.loads(done.stdout)
        assert (figures["added"], figures["changed"], figures["deleted"]) == (0, 1, 0)
        assert figures["db_path"] == str(repo / ".ctxopt")
        assert _served(sock) == 1
        again = _ctxopt("index", "--json", repo=repo, env=_env(runtime, CTXOPT_BACKGROUND="0"))
        assert json.loads(again.stdout)["changed"] == 0  # the served update was committed
    finally:
        target.write_text(original, encoding="utf-8")
        run_cli("index", str(repo), "--quiet")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    init_repo(fresh)
    write_files(fresh, {"a.py": "def a():\n    return 1\n"})
    commit_all(fresh, "a")
    for args in (("index", str(fresh), "--quiet"), ("index", "--full", "--quiet")):
        assert _ctxopt(*args, repo=repo, env=env).returncode == 0
    assert _served(sock) == 1  # a first build and --full ran in their own processes


def test_a_busy_server_is_passed_by(repo: Path, runtime: Path) -> None:
    """While the server is held by a call (a pack whose stdout nobody reads), another
    call runs in its own process after a short wait instead of queueing behind it."""
    env = _env(runtime)
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    holder = _held_call(repo, env, sock)
    try:
        started = time.monotonic()
        passing = _ctxopt("query", TASK, "--json", repo=repo, env=env)
        waited = time.monotonic() - started
        assert passing.returncode == 0, passing.stderr
        assert json.loads(passing.stdout)
        assert holder.poll() is None  # the server is still held
        assert waited < 60
    finally:
        holder.send_signal(signal.SIGINT)
        holder.communicate(timeout=30)
    assert holder.returncode == 130
    assert _served(sock) == 1  # the held call, not the one that passed by


def _planted(marker: Path) -> str:
    """A module that records that it ran, then hands its name back to Python's own."""
    return (
        "import importlib, os, sys\n"
        f"open({str(marker)!r}, 'a').write(f'{{__name__}} in pid {{os.getpid()}}\\n')\n"
        "del sys.modules[__name__]\n"
        "sys.path[:] = [p for p in sys.path if p not in ('', os.getcwd())]\n"
        "real = importlib.import_module(__name__)\n"
        "sys.modules[__name__] = real\n"
        "globals().update(real.__dict__)\n"
    )


def test_no_code_of_the_repository_runs_in_the_server_or_the_parsers(
    tmp_path: Path, runtime: Path
) -> None:
    """A repository's json.py or multiprocessing/ must not be imported in place of Python's
    by anything ctxopt starts in it: the background server (`python -m`, which puts the
    folder it starts in first on the module path) or the parsers' fork server (`python -c`,
    the same)."""
    marker = tmp_path / "ran"
    hostile = init_repo(tmp_path / "hostile")
    write_files(
        hostile,
        {
            "app.py": "def hello_planted():\n    return 1\n",
            "json.py": _planted(marker),
            "multiprocessing/__init__.py": _planted(marker),
            **{f"lib/m{i}.py": f"def helper_{i}():\n    return {i}\n" for i in range(30)},
        },
    )
    commit_all(hostile)
    env = _env(runtime)
    # the command as a user runs it (`python -m` here would itself import json.py)
    script = shutil.which("ctxopt", path=str(Path(sys.executable).parent)) or shutil.which("ctxopt")
    assert script is not None, "the ctxopt command is installed"

    def ctxopt(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([script, *args], cwd=hostile, env=env, capture_output=True)

    first = ctxopt("index", "--quiet")  # a first build: in-process
    assert first.returncode == 0, first.stderr
    assert ctxopt("query", "hello planted").returncode == 0
    sock = _server(runtime)
    write_files(hostile, {"app.py": "def hello_planted():\n    return 2\n"})
    served = ctxopt("query", "hello planted", "--json")
    assert served.returncode == 0, served.stderr
    assert "hello_planted" in served.stdout.decode()
    assert _served(sock) >= 1  # the refresh ran in the server, its parsers too
    assert not marker.exists(), marker.read_text()


def test_a_caller_whose_stdout_is_closed_runs_the_command_itself(repo: Path, runtime: Path) -> None:
    """`ctxopt pack ... >&-` with a server running: the socket the caller opened took
    descriptor 1, the server was handed it as the caller's stdout and wrote the prompt into
    the protocol, and the call ended with exit 0 and the prompt lost.  The caller now runs it
    itself, which says stdout is closed (exit 1), as without a server."""
    env = _env(runtime)
    assert _ctxopt("query", TASK, "--json", repo=repo, env=env).returncode == 0
    sock = _server(runtime)
    for args in (("query", TASK, "--json"), ("pack", TASK, "--budget", "2000")):
        closed = subprocess.run(
            ["sh", "-c", 'exec "$0" -m ctxopt.launch "$@" >&-', sys.executable, *args],
            cwd=repo, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert closed.returncode == 1, closed.stderr
        assert "cannot write to standard output: it is closed" in closed.stderr
    assert _served(sock) == 0
