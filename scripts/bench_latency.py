"""The four latency figures of an indexed repository, process start to output, as medians.

Usage: python scripts/bench_latency.py REPO [--runs 5] [--src SRC ...] [--json]

REPO must be a git work tree already indexed by `ctxopt index` (its index folder is used
and left as it was found).  The figures, each a fresh process as a shell would start it:

- ``no_change``: `ctxopt index` with nothing changed;
- ``one_file``: `ctxopt index` after one line is appended to one tracked source file (the
  file is restored afterwards and re-indexed, untimed);
- ``query``: `ctxopt query TASK --json`;
- ``pack``: `ctxopt pack TASK --budget 8000`.

Each ``--src`` is a source folder put first on PYTHONPATH (default: this checkout's src/).
With several, their runs alternate (A B A B ...), so a before/after comparison shares the
machine's moods; wall and CPU seconds (user + system, children included) are reported.

Each source folder is byte-compiled first (``compileall``, into its ``__pycache__``), as
``pip install`` does for an installed package and as Python itself does on a user's first
run: without it, a machine that sets PYTHONDONTWRITEBYTECODE (this one does) would compile
ctxopt's modules from source in every timed process.  ``--no-compile`` skips that.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS = (
    "fix the error raised when parsing an empty expression",
    "how does simplification of trigonometric expressions work",
    "add a test for matrix determinant of a singular matrix",
)
FIGURES = ("no_change", "one_file", "query", "pack")
EDIT = "\n# ctxopt latency benchmark edit\n"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(src: Path, repo: Path, args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one `ctxopt ARGS` process run in repo."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "ctxopt.cli", *args]
    cpu, started = _cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ctxopt {' '.join(args)} failed: {done.stderr.decode(errors='replace')[-400:]}")
    return wall, _cpu() - cpu


def edited_file(repo: Path) -> Path:
    listed = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "*.py"], capture_output=True, text=True, check=True
    ).stdout.split()
    if not listed:
        sys.exit("no tracked Python file to change")
    return repo / sorted(listed)[len(listed) // 2]


def one_file(src: Path, repo: Path, target: Path) -> tuple[float, float]:
    """Index after a one-line edit; then the file as it was, indexed again (untimed)."""
    original = target.read_bytes()
    target.write_bytes(original + EDIT.encode())
    try:
        figures = run(src, repo, ["index", "--quiet"])
    finally:
        target.write_bytes(original)
    run(src, repo, ["index", "--quiet"])
    return figures


def measure(src: Path, repo: Path, figure: str, turn: int, target: Path) -> tuple[float, float]:
    task = TASKS[turn % len(TASKS)]
    if figure == "no_change":
        return run(src, repo, ["index", "--quiet"])
    if figure == "one_file":
        return one_file(src, repo, target)
    if figure == "query":
        return run(src, repo, ["query", task, "--json", "--quiet"])
    return run(src, repo, ["pack", task, "--budget", "8000", "--quiet"])


def bench(
    repo: Path, sources: list[Path], runs: int, *, compile_sources: bool = True
) -> dict[str, dict[str, dict[str, float]]]:
    target = edited_file(repo)
    if compile_sources:
        for src in sources:  # as an installed package has its bytecode
            compileall.compile_dir(str(src), quiet=1)
    for src in sources:  # warm up: caches, and an index each version has seen fresh
        run(src, repo, ["index", "--quiet"])
        run(src, repo, ["query", "warm up", "--json", "--quiet"])
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for figure in FIGURES:
        for turn in range(runs):
            for src in sources:
                samples.setdefault((str(src), figure), []).append(
                    measure(src, repo, figure, turn, target)
                )
    report: dict[str, dict[str, dict[str, float]]] = {}
    for (label, figure), values in samples.items():
        walls, cpus = [w for w, _ in values], [c for _, c in values]
        report.setdefault(label, {})[figure] = {
            "wall_median_s": round(statistics.median(walls), 3),
            "wall_min_s": round(min(walls), 3),
            "wall_max_s": round(max(walls), 3),
            "cpu_median_s": round(statistics.median(cpus), 3),
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", type=Path, action="append", help="PYTHONPATH of a version.")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--no-compile", action="store_true", help="Time ctxopt's modules compiled from source."
    )
    args = parser.parse_args()
    sources = [s.resolve() for s in args.src or [HERE.parent / "src"]]
    report = bench(args.repo.resolve(), sources, args.runs, compile_sources=not args.no_compile)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for src, rows in report.items():
        print(src)
        for figure in FIGURES:
            row = rows[figure]
            print(
                f"  {figure:>9}: wall median {row['wall_median_s']:.3f} s"
                f" ({row['wall_min_s']:.3f}-{row['wall_max_s']:.3f}),"
                f" CPU median {row['cpu_median_s']:.3f} s"
            )


if __name__ == "__main__":
    main()
