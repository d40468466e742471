"""Benchmark `ctxopt query` latency (and `pack` with --pack), process start to output.

Usage: python scripts/bench_query.py PATH [--runs 5] [--pack] [--json]

PATH must already be indexed (`ctxopt index PATH`).  Each run is a fresh process,
as a user's shell would start it; the script also checks which heavy modules the
process imported (torch and sentence_transformers must never be).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

TASKS = (
    "fix the error raised when parsing an empty expression",
    "how does simplification of trigonometric expressions work",
    "add a test for matrix determinant of a singular matrix",
)
PROBE = (
    "import sys, atexit\n"
    "heavy = ('torch', 'sentence_transformers', 'lancedb', 'transformers')\n"
    "atexit.register(lambda: sys.stderr.write('IMPORTED ' + ','.join("
    "m for m in heavy if m in sys.modules) + '\\n'))\n"
    "from ctxopt.cli import main\n"
    "sys.argv = ['ctxopt'] + sys.argv[1:]\n"
    "main()\n"
)


def timed(args: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ctxopt {' '.join(args[:1])} failed: {done.stderr.strip()[-300:]}")
    imported = [ln for ln in done.stderr.splitlines() if ln.startswith("IMPORTED")]
    return seconds, imported[-1][len("IMPORTED ") :] if imported else "?"


def measure(kind: str, path: Path, runs: int) -> dict:
    times: list[float] = []
    heavy: set[str] = set()
    for run in range(runs):
        task = TASKS[run % len(TASKS)]
        args = [kind, task, "--path", str(path), "--quiet"]
        if kind == "pack":
            args += ["--budget", "8000"]
        else:
            args += ["--json"]
        seconds, imported = timed(args)
        times.append(seconds)
        heavy.update(m for m in imported.split(",") if m)
    return {
        "median_s": round(statistics.median(times), 3),
        "min_s": round(min(times), 3),
        "max_s": round(max(times), 3),
        "heavy_modules": sorted(heavy),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pack", action="store_true", help="Measure `ctxopt pack` too.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report_latency(args.path, args.runs, ("query", "pack") if args.pack else ("query",), args.json)


def report_latency(path: Path, runs: int, kinds: tuple[str, ...], as_json: bool) -> None:
    """Warm up once, then measure each command kind and print the figures."""
    timed(["query", "warm up", "--path", str(path), "--quiet", "--json"])
    report = {kind: measure(kind, path, runs) for kind in kinds}
    if as_json:
        print(json.dumps(report, indent=2))
        return
    for kind, row in report.items():
        print(
            f"ctxopt {kind}: median {row['median_s']} s (min {row['min_s']}, max {row['max_s']}),"
            f" heavy modules imported: {', '.join(row['heavy_modules']) or 'none'}"
        )


if __name__ == "__main__":
    main()
