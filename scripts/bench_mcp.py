"""Benchmark a warm `pack` through `ctxopt mcp` against `ctxopt pack` as a process.

Usage: python scripts/bench_mcp.py PATH [--db DIR] [--runs 9] [--budget 8000] [--json]

PATH must already be indexed (`ctxopt index --path PATH`).  The server is started once
through the official SDK's stdio client; its first call (which may wait for the warm-up)
is reported apart.  Then runs alternate: one `pack` tool call (round trip through the
protocol) and one `ctxopt pack` process (start to exit), on the same task, so both see the
same machine load.  Each run takes a task no earlier call had (the server's caches see
each task once), and each run's prompts from both are compared: the same options must give
the same prompt.  The server's CPU time per warm call (user + system of its process, read
from /proc on Linux around each call) is reported too: the load inflates it far less than
wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

TASKS = (
    "fix the error raised when an option gets multiple values",
    "how does the help text get formatted and wrapped",
    "add a test for a required option that is missing",
    "where are parse errors reported to the user",
    "add caching to the function that loads the configuration",
    "refactor the code that converts values to strings",
    "make the retry delay configurable",
    "the output is wrong when the terminal has no colors",
    "explain how the command line arguments are parsed",
    "add a test for reading an empty file",
    "improve the error message for an invalid input value",
    "how are environment variables read into settings",
    "fix a crash when the path does not exist",
    "document the public functions of the main module",
    "rename the helper that formats dates",
    "why is startup slow with many plugins",
)


def _figures(times: list[float]) -> dict[str, float]:
    return {
        "median_s": round(statistics.median(times), 3),
        "min_s": round(min(times), 3),
        "max_s": round(max(times), 3),
    }


def _location(path: Path, db: Path | None) -> list[str]:
    return ["--path", str(path), *(["--db", str(db)] if db else [])]


def process_pack(path: Path, db: Path | None, task: str, budget: int) -> tuple[float, str]:
    command = [sys.executable, "-m", "ctxopt.cli", "pack", task, "--budget", str(budget)]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, *_location(path, db), "--quiet"], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ctxopt pack failed: {done.stderr.strip()[-300:]}")
    return seconds, done.stdout


def _prompt(result: Any) -> str:
    if not isinstance(result, CallToolResult) or result.is_error:
        sys.exit(f"the pack tool failed: {result}")
    return "".join(b.text for b in result.content if isinstance(b, TextContent))


def _server_pid() -> int | None:
    """The pid of this process's child running `ctxopt.cli mcp` (Linux /proc), or None."""
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat[1] == me and b"mcp" in command and b"ctxopt.cli" in command:
            return int(entry.name)
    return None


def _cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of a process so far (0.0 when unknown)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(path: Path, db: Path | None, runs: int, budget: int) -> dict[str, Any]:
    command = [sys.executable, "-m", "ctxopt.cli", "mcp", *_location(path, db), "--quiet"]
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    server: list[float] = []
    server_cpu: list[float] = []
    process: list[float] = []
    same = True
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready = time.perf_counter() - started
        begun = time.perf_counter()
        _prompt(await session.call_tool("pack", {"task": TASKS[0], "budget": budget}))
        first_call = time.perf_counter() - begun
        pid = _server_pid()
        for run in range(runs):
            task = TASKS[1 + run % (len(TASKS) - 1)]
            cpu = _cpu_seconds(pid)
            begun = time.perf_counter()
            answer = _prompt(await session.call_tool("pack", {"task": task, "budget": budget}))
            server.append(time.perf_counter() - begun)
            server_cpu.append(_cpu_seconds(pid) - cpu)
            seconds, printed = await anyio.to_thread.run_sync(process_pack, path, db, task, budget)
            process.append(seconds)
            same = same and printed.rstrip("\n") == answer.rstrip("\n")
    return {
        "repository": str(path),
        "runs": runs,
        "budget": budget,
        "server_start_to_initialized_s": round(ready, 3),
        "server_first_pack_s": round(first_call, 3),
        "server_warm_pack": _figures(server),
        "server_warm_pack_cpu": {
            "mean_s": round(sum(server_cpu) / len(server_cpu), 3) if pid else None,
            "median_s": round(statistics.median(server_cpu), 3) if pid else None,
        },
        "process_pack": _figures(process),
        "same_prompt": same,
        "cores": os.cpu_count(),
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument(
        "--db", type=Path, default=None, help="Index folder (default PATH/.ctxopt)."
    )
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be at least 1")
    load = [round(x, 2) for x in os.getloadavg()]
    report = {
        "load_average_before": load,
        **anyio.run(measure, args.path, args.db, args.runs, args.budget),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['repository']}: pack --budget {args.budget}, {args.runs} runs each")
    print(f"  server ready (start to initialized): {report['server_start_to_initialized_s']} s")
    print(f"  server first pack call:              {report['server_first_pack_s']} s")
    for label, key in (("server warm pack", "server_warm_pack"), ("ctxopt pack", "process_pack")):
        f = report[key]
        print(f"  {label}: median {f['median_s']} s (min {f['min_s']}, max {f['max_s']})")
    cpu = report["server_warm_pack_cpu"]
    print(
        f"  server warm pack CPU (its process): mean {cpu['mean_s']} s, median {cpu['median_s']} s"
    )
    print(f"  same prompt both ways (every run): {report['same_prompt']}")
    after = report["load_average_after"]
    print(f"  load average before {load}, after {after} on {report['cores']} cores")


if __name__ == "__main__":
    main()
