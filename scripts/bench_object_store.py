"""Index and query times with the index on object storage against a local folder.

Usage: python scripts/bench_object_store.py REPO --bucket NAME [--runs 3] [--queries 5]

The S3 side is whatever the environment points at: the AWS_* keys and region, and
CTXOPT_STORAGE_ENDPOINT (or AWS_ENDPOINT_URL) for an S3-compatible server, e.g. moto's:
`python -m moto.server -H 127.0.0.1 -p 5000`, then `curl -X PUT http://127.0.0.1:5000/NAME`.
Each measurement is a fresh `ctxopt` process timed from outside, the local and the S3 run
alternating so a change in the machine's load hits both.  Per round: a cold index (a new
folder, a new prefix), a re-index after one file changed, and `ctxopt query` runs.  The
repository is not touched: the runs work on a `git clone` of it in a temporary folder.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

TASKS = (
    "fix the bash completion for option values with spaces",
    "how are environment variables mapped to options",
    "add a test for a required option with a default",
)


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ctxopt(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ctxopt process (CPU: its own and its workers')."""
    cpu = child_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ctxopt.cli", *args, "--quiet"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ctxopt {' '.join(args)} failed: {done.stderr.strip()[-300:]}")
    return seconds, child_cpu() - cpu


def touch_one_file(clone: Path, round_: int) -> None:
    """Append a comment to the first tracked Python file: a one-file change."""
    listed = subprocess.run(
        ["git", "-C", str(clone), "ls-files", "*.py"], capture_output=True, text=True, check=True
    )
    target = clone / listed.stdout.split()[0]
    with target.open("a", encoding="utf-8") as handle:
        handle.write(f"\n# bench change {round_}\n")


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def summary(runs: list[tuple[float, float]]) -> str:
    walls = [wall for wall, _ in runs]
    cpu = statistics.median(cpu for _, cpu in runs)
    return f"{median(walls)} | {cpu:.2f} s | {len(runs)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--queries", type=int, default=5)
    args = parser.parse_args()
    times: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="ctxopt-bench-") as scratch:
        clone = Path(scratch) / "repo"
        subprocess.run(["git", "clone", "-q", str(args.repo), str(clone)], check=True)
        for round_ in range(args.runs):
            places = {
                "local": str(Path(scratch) / f"index-{round_}"),
                "s3": f"s3://{args.bucket}/bench-{uuid.uuid4().hex[:8]}",
            }
            for side, db in places.items():
                times.setdefault(f"cold index, {side}", []).append(
                    ctxopt(["index", ".", "--db", db], clone)
                )
            touch_one_file(clone, round_)
            for side, db in places.items():
                times.setdefault(f"one file changed, {side}", []).append(
                    ctxopt(["index", ".", "--db", db], clone)
                )
            for run in range(args.queries):
                task = TASKS[run % len(TASKS)]
                for side, db in places.items():
                    times.setdefault(f"query, {side}", []).append(
                        ctxopt(["query", task, "--db", db, "--json"], clone)
                    )
    print("| what | wall, median (range) | CPU, median | runs |\n|---|---|---|---|")
    for name, runs in times.items():
        print(f"| {name} | {summary(runs)} |")


if __name__ == "__main__":
    main()
