"""Where the output goes: a reader that closes the pipe early, and `-o` files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error, run_cli
from helpers import commit_all, init_repo, write_files

pytestmark = pytest.mark.slow
TASK = "fix save_inventory when the file is missing"


def run_into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """ctxopt writing into a pipe whose reader is gone (as after `| head -c 10`): the read
    end is closed before the child writes, so its first write fails whatever the size."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "ctxopt.cli", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
            timeout=600,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args",
    [
        ("pack", TASK),
        ("pack", TASK, "--json"),
        ("pack", TASK, "--format", "xml", "--explain"),
        ("query", TASK),
        ("query", TASK, "--json"),
        ("stats",),
        ("stats", "--json"),
        ("index", "--json"),
        ("pack", "--help"),
        ("--help",),
    ],
    ids=lambda args: " ".join(a for a in args if a != TASK) or "pack",
)
def test_a_closed_stdout_ends_quietly_with_exit_0(
    indexed_repo: Path, args: tuple[str, ...]
) -> None:
    where = () if "--help" in args else ("--path", str(indexed_repo))
    done = run_into_closed_pipe(*args, *where)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr
    assert "error" not in done.stderr.lower()


def run_with_streams(
    args: tuple[str, ...], *, prefix: list[str] | None = None, **streams: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*(prefix or [sys.executable, "-m", "ctxopt.cli"]), *args],
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=600,
        **streams,  # type: ignore[call-overload]
    )


@pytest.mark.parametrize(
    "args",
    [("pack", TASK), ("query", TASK, "--json"), ("stats", "--json"), ("--version",)],
    ids=lambda args: " ".join(a for a in args if a != TASK) or "pack",
)
@pytest.mark.parametrize("stdout", ["full disk", "closed"])
def test_stdout_that_cannot_take_the_product_is_one_line(
    indexed_repo: Path, args: tuple[str, ...], stdout: str
) -> None:
    where = () if args == ("--version",) else ("--path", str(indexed_repo))
    if stdout == "full disk":
        with open("/dev/full", "w") as full:
            done = run_with_streams((*args, *where), stdout=full, stderr=subprocess.PIPE)
        reason = "No space left on device"
    else:  # the child starts with descriptor 1 closed: `ctxopt ... >&-`
        command = ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "ctxopt.cli"]
        done = run_with_streams((*args, *where), stderr=subprocess.PIPE, prefix=command)
        reason = "it is closed"
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"ctxopt: error: cannot write to standard output: {reason}", done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_messages_that_cannot_be_written_cost_nothing(indexed_repo: Path) -> None:
    """stderr's reader gone (`2>&1 | head`): the prompt is still written, and the exit is 0."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        args = ("pack", TASK, "--path", str(indexed_repo), "--budget", "3000")
        done = run_with_streams(args, stdout=subprocess.PIPE, stderr=write_end)
    finally:
        os.close(write_end)
    assert done.returncode == 0
    assert done.stdout.startswith("# Context") and "def save_inventory" in done.stdout


def big_repo(root: Path) -> Path:
    """A repository whose pack holds far more than a pipe buffers (64 KiB): 120 functions,
    none a near-duplicate of another."""
    repo = init_repo(root / "big")
    words = "price stock weight volume margin discount tax shelf batch order".split()

    def function(i: int, j: int) -> str:
        lines = [
            f"    total += item.{words[(n * 7 + i + j) % 10]}_{i}_{j}_{n} * {n * i + j}\n"
            for n in range(25)
        ]
        return (
            f"def save_inventory_{i}_{j}(warehouse, item):\n    total = 0\n"
            + "".join(lines)
            + "    return total\n\n\n"
        )

    files = {f"inventory/part_{i}.py": "".join(function(i, j) for j in range(4)) for i in range(30)}
    write_files(repo, files)
    commit_all(repo)
    done = run_cli("index", str(repo), "--quiet")
    assert done.code == 0, done.err
    return repo


def test_a_pipe_read_in_part_ends_quietly(tmp_path: Path) -> None:
    """A reader that takes a few bytes and closes the pipe, as `head -c 10` does."""
    repo = big_repo(tmp_path)
    child = subprocess.Popen(
        [sys.executable, "-m", "ctxopt.cli", "pack", TASK, "--path", str(repo), "--json",
         "--budget", "100000", "--max-chunks-per-file", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.read(10) == b'{\n  "promp'
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=600) == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "packed" not in err  # it stopped at the closed pipe, as shell tools do


def test_output_file_in_missing_folders_is_created(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "dir" / "out.md"
    done = cli("pack", TASK, "--path", str(indexed_repo), "-o", str(target))
    assert done.code == 0, done.err
    assert done.out == ""
    assert "def save_inventory" in target.read_text(encoding="utf-8")
    assert str(target) in done.err  # the summary says where the prompt went


@pytest.mark.parametrize("where", ["a folder", "under a file"])
def test_unwritable_output_is_one_clear_line(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path, where: str
) -> None:
    blocker = tmp_path / "blocker"
    if where == "a folder":
        blocker.mkdir()
        target = blocker
    else:
        blocker.write_text("a file, not a folder\n")
        target = blocker / "out.md"
    done = cli("pack", TASK, "--path", str(indexed_repo), "-o", str(target))
    assert_one_line_error(done)
    assert "internal error" not in done.err
    assert str(target) in done.err and "-o" in done.err
    assert done.out == ""
