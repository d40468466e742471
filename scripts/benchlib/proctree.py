"""Run a command and measure it as a whole: wall and CPU seconds, and the peak resident
memory of its process tree (the command and every worker it starts, summed; sampled from
/proc every 100 ms, so a peak shorter than that can be missed).

This process makes itself a child subreaper (Linux), so descendants orphaned by the command
(a fork server outliving its parent, and that server's workers) are reparented here and
reaped here: their CPU time then counts in this process's children's rusage."""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
PR_SET_CHILD_SUBREAPER = 36
SAMPLE_S = 0.1  # between memory samples (a walk of /proc costs a few ms)
REAP_S = 30.0  # how long descendants may outlive the command before being left alone


def become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_descendants() -> None:
    """Wait for every child left (orphans reparented here) for up to REAP_S."""
    deadline = time.monotonic() + REAP_S
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.05)


@dataclass(frozen=True)
class Measured:
    seconds: float  # wall, process start to exit
    cpu_seconds: float  # user + system of the command and its children
    tree_peak_mb: float  # the process tree's summed RSS at its highest sample
    stdout: str
    returncode: int


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry))
    return tree


def tree_rss(root: int) -> int:
    """Bytes resident in root's descendants now (root itself not counted)."""
    tree = _children()
    todo, total = list(tree.get(root, ())), 0
    while todo:
        pid = todo.pop()
        todo.extend(tree.get(pid, ()))
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total


def run(
    command: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None
) -> Measured:
    """Run command to its end, its stdout kept and its stderr discarded."""
    become_subreaper()
    reap_descendants()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(SAMPLE_S):
            peak[0] = max(peak[0], tree_rss(os.getpid()))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = process.communicate()
    seconds = time.perf_counter() - started
    stop.set()
    sampler.join()
    reap_descendants()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Measured(
        seconds=round(seconds, 3),
        cpu_seconds=round(cpu, 2),
        tree_peak_mb=round(peak[0] / 2**20, 1),
        stdout=out,
        returncode=process.returncode,
    )
