"""Benchmark ctxopt end to end on one repository, beside whole-repository packers.

Usage: python scripts/bench.py PATH [--runs 5] [--workers N] [--budget 8000]
                               [--no-compare] [--json]

Works on a local clone of PATH (the repository itself is never touched).  Every figure is
a whole process, started as a user's shell would: a cold `ctxopt index --full`; re-index
with nothing changed and with one file changed (median of --runs); `ctxopt query` and
`ctxopt pack --budget` (median of --runs, over three tasks); with, for each, CPU seconds
and the peak resident memory of the process tree (workers included).  Then, in the same
run, whole-repository packers where they start (`npx repomix`, `gitingest`; GITINGEST
names another executable), with their time, memory and the tokens of their output counted
with the same tokenizer as ctxopt's (cl100k).  The README's performance table comes from
this script.  The machine's load is printed with the figures: on a shared machine quote
medians and compare runs made together.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.proctree import Measured, run

TASKS = (
    "fix the error raised when parsing an empty expression",
    "how does the cache refresh its records after an update",
    "add a test for the payment refund of a cancelled order",
)
CTXOPT = [sys.executable, "-m", "ctxopt.cli"]


def clone(source: Path, target: Path) -> None:
    subprocess.run(["git", "clone", "-q", "--local", str(source), str(target)], check=True)


def tracked(repo: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, text=True, check=True
    ).stdout
    return [p for p in listed.split("\0") if p]


def count_lines(repo: Path) -> int:
    total = 0
    for rel in tracked(repo):
        path = repo / rel
        if path.is_file() and path.stat().st_size < 1 << 20:
            total += path.read_bytes().count(b"\n")
    return total


def pick_file(repo: Path) -> Path:
    code = sorted(p for p in tracked(repo) if p.endswith((".py", ".go", ".ts", ".rs", ".java")))
    if not code:
        sys.exit("no source file to change")
    return repo / code[len(code) // 2]


def checked(measured: Measured, what: str) -> Measured:
    if measured.returncode != 0:
        sys.exit(f"{what} failed (exit {measured.returncode})")
    return measured


def figures(runs: list[Measured]) -> dict[str, Any]:
    """Median, min and max wall seconds; median CPU seconds; the highest tree peak."""
    walls = [r.seconds for r in runs]
    return {
        "median_s": round(statistics.median(walls), 3),
        "min_s": min(walls),
        "max_s": max(walls),
        "cpu_s": round(statistics.median(r.cpu_seconds for r in runs), 2),
        "peak_mb": max(r.tree_peak_mb for r in runs),
        "runs": len(runs),
    }


def index_phases(repo: Path, db: Path, runs: int, workers: int | None) -> dict[str, Any]:
    index = [*CTXOPT, "index", str(repo), "--db", str(db), "--json", "--quiet"]
    if workers:
        index += ["--workers", str(workers)]
    cold = checked(run([*index, "--full"]), "cold index")
    stats = json.loads(cold.stdout)
    report: dict[str, Any] = {"cold": figures([cold]), "index": _index_counts(stats)}
    report["no_change"] = figures([checked(run(index), "re-index") for _ in range(runs)])
    target = pick_file(repo)
    changed = []
    for step in range(runs):
        with target.open("a", encoding="utf-8") as handle:
            handle.write(f"\n{'#' if target.suffix == '.py' else '//'} bench edit {step}\n")
        changed.append(checked(run(index), "one-file re-index"))
    report["one_file_changed"] = figures(changed)
    report["changed_file"] = str(target.relative_to(repo))
    return report


def _index_counts(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: stats[k] for k in ("files", "chunks", "tokens", "embedded")}


def query_pack(repo: Path, db: Path, runs: int, budget: int) -> dict[str, Any]:
    from ctxopt import tokens

    out: dict[str, Any] = {}
    for kind in ("query", "pack"):
        measured = []
        for step in range(runs + 1):  # the first run warms the page cache, not counted
            command = [
                *CTXOPT,
                kind,
                TASKS[step % len(TASKS)],
                "--path",
                str(repo),
                "--db",
                str(db),
            ]
            command += ["--quiet"] + (["--budget", str(budget)] if kind == "pack" else ["--json"])
            done = checked(run(command), f"ctxopt {kind}")
            if step:
                measured.append(done)
        out[kind] = figures(measured)
        if kind == "pack":
            out[kind]["tokens"] = tokens.count(measured[-1].stdout)
    return out


def packers(repo: Path, scratch: Path) -> dict[str, Any]:
    """Whole-repository packers, each timed and its output's tokens counted."""
    from ctxopt import tokens

    found: dict[str, Any] = {}
    gitingest = os.environ.get("GITINGEST") or shutil.which("gitingest")
    npx = shutil.which("npx")
    commands = {
        "repomix": [npx, "-y", "repomix", "--quiet", "-o", "{out}", str(repo)] if npx else None,
        "gitingest": [gitingest, str(repo), "-o", "{out}"] if gitingest else None,
    }
    for name, command in commands.items():
        if command is None:
            found[name] = {"error": "not installed"}
            continue
        output = scratch / f"{name}.txt"
        measured = run([str(output) if part == "{out}" else str(part) for part in command])
        if measured.returncode != 0 or not output.exists():
            found[name] = {"error": f"exit {measured.returncode}"}
            continue
        text = output.read_text(encoding="utf-8", errors="replace")
        found[name] = {**figures([measured]), "tokens": tokens.count(text)}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("--no-compare", action="store_true", help="skip repomix and gitingest")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ctxopt-bench-") as tmp:
        repo, db = Path(tmp) / "repo", Path(tmp) / "db"
        clone(args.path.resolve(), repo)
        report: dict[str, Any] = {"repo": str(args.path), "lines": count_lines(repo)}
        report["load_before"] = os.getloadavg()[0]
        report |= index_phases(repo, db, args.runs, args.workers)
        report |= query_pack(repo, db, args.runs, args.budget)
        if not args.no_compare:
            report["packers"] = packers(repo, Path(tmp))
        report["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print_report(report)


def print_report(report: dict[str, Any]) -> None:
    counts = report["index"]
    print(
        f"{report['repo']}: {report['lines']:,} lines, {counts['files']:,} files indexed, "
        f"{counts['chunks']:,} chunks, {counts['tokens']:,} tokens "
        f"(load average {report['load_before']:.1f} before, {report['load_after']:.1f} after)"
    )
    rows = [(k, report[k]) for k in ("cold", "no_change", "one_file_changed", "query", "pack")]
    rows += [(f"{k} (whole repo)", v) for k, v in report.get("packers", {}).items()]
    for name, row in rows:
        if "error" in row:
            print(f"{name:>24}: {row['error']}")
            continue
        tokens = f"  {row['tokens']:,} tokens" if "tokens" in row else ""
        print(
            f"{name:>24}: median {row['median_s']:.2f} s ({row['min_s']:.2f}-{row['max_s']:.2f},"
            f" {row['runs']} runs)  CPU {row['cpu_s']:.1f} s  peak {row['peak_mb']:,.0f} MB{tokens}"
        )


if __name__ == "__main__":
    main()
