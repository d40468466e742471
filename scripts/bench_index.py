"""Benchmark `ctxopt index` on a repository: cold, no-change and one-file-change runs.

Usage: python scripts/bench_index.py PATH [--embedder static] [--json]

Works on a temporary clone of PATH (the repository itself is never touched) and runs
each phase as a separate `ctxopt index` process, reporting wall seconds, files/s,
chunks/s and the peak resident memory of that process.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def clone(source: Path, target: Path) -> None:
    if (source / ".git").exists():
        subprocess.run(["git", "clone", "-q", "--local", str(source), str(target)], check=True)
    else:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(".ctxopt"))


def run_index(repo: Path, db: Path, embedder: str, *extra: str) -> dict:
    command = [sys.executable, "-m", "ctxopt.cli", "index", str(repo), "--db", str(db)]
    command += ["--embedder", embedder, "--json", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ctxopt index failed: {done.stderr.strip()}")
    stats = json.loads(done.stdout)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "seconds": round(seconds, 2),
        "files": stats["files"],
        "chunks": stats["chunks"],
        "embedded": stats["embedded"],
        "files_per_s": round((stats["added"] + stats["changed"]) / seconds, 1),
        "chunks_per_s": round(stats["embedded"] / seconds, 1),
        "peak_rss_mb_so_far": round(max(before, peak) / 1024, 1),
    }


def pick_file(repo: Path) -> Path:
    listed = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "*.py", "*.go", "*.ts", "*.rs", "*.java"],
        capture_output=True, text=True, check=False,
    ).stdout.split()  # fmt: skip
    if not listed:
        sys.exit("no source file to change")
    return repo / sorted(listed)[len(listed) // 2]


def count_lines(repo: Path) -> int:
    files = subprocess.run(
        ["git", "-C", str(repo), "ls-files"], capture_output=True, text=True, check=False
    ).stdout.split("\n")
    total = 0
    for rel in files:
        path = repo / rel
        if rel and path.is_file() and path.stat().st_size < 1 << 20:
            try:
                total += path.read_bytes().count(b"\n")
            except OSError:
                continue
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--embedder", default="static")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ctxopt-bench-") as tmp:
        repo, db = Path(tmp) / "repo", Path(tmp) / "db"
        clone(args.path.resolve(), repo)
        report = {"repo": str(args.path), "lines": count_lines(repo)}
        report["cold"] = run_index(repo, db, args.embedder)
        report["no_change"] = run_index(repo, db, args.embedder)
        target = pick_file(repo)
        target.write_text(target.read_text(errors="replace") + "\n# bench edit\n")
        report["one_file_changed"] = run_index(repo, db, args.embedder)
        report["changed_file"] = str(target.relative_to(repo))
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['repo']}: {report['lines']:,} lines")
    for phase in ("cold", "no_change", "one_file_changed"):
        row = report[phase]
        assert isinstance(row, dict)
        print(
            f"{phase:>17}: {row['seconds']:7.2f} s  {row['files']:,} files"
            f"  {row['chunks']:,} chunks"
            f"  embedded {row['embedded']:,}  {row['files_per_s']:,} files/s"
            f"  {row['chunks_per_s']:,} chunks/s  peak RSS {row['peak_rss_mb_so_far']:,} MB"
        )


if __name__ == "__main__":
    main()
