"""Benchmark a warm `pack` through `ctxopt mcp` against `ctxopt pack` as a process.

Usage: python scripts/bench_mcp.py PATH [--db DIR] [--runs 9] [--budget 8000] [--json]

PATH must already be indexed (`ctxopt index --path PATH`).  The server is started once
through the official SDK's stdio client; its first call (which may wait for the warm-up)
is reported apart.  Then runs alternate: one `pack` tool call (round trip through the
protocol) and one `ctxopt pack` process (start to exit), on the same tasks, so both see the
same machine load.  The first task's prompt from both is compared: the same options must
give the same prompt.
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


async def measure(path: Path, db: Path | None, runs: int, budget: int) -> dict[str, Any]:
    command = [sys.executable, "-m", "ctxopt.cli", "mcp", *_location(path, db), "--quiet"]
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    server: list[float] = []
    process: list[float] = []
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready = time.perf_counter() - started
        begun = time.perf_counter()
        first = _prompt(await session.call_tool("pack", {"task": TASKS[0], "budget": budget}))
        first_call = time.perf_counter() - begun
        for run in range(runs):
            task = TASKS[run % len(TASKS)]
            begun = time.perf_counter()
            _prompt(await session.call_tool("pack", {"task": task, "budget": budget}))
            server.append(time.perf_counter() - begun)
            seconds, printed = await anyio.to_thread.run_sync(process_pack, path, db, task, budget)
            process.append(seconds)
            if run == 0:
                same = printed.rstrip("\n") == first.rstrip("\n")
    return {
        "repository": str(path),
        "runs": runs,
        "budget": budget,
        "server_start_to_initialized_s": round(ready, 3),
        "server_first_pack_s": round(first_call, 3),
        "server_warm_pack": _figures(server),
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
    print(f"  same prompt both ways: {report['same_prompt']}")
    after = report["load_average_after"]
    print(f"  load average before {load}, after {after} on {report['cores']} cores")


if __name__ == "__main__":
    main()
