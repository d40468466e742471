"""Index a generated repository of many small files through the real CLI, then query,
pack and re-index it: the times, peak memory and whether every file arrived.

Usage: python scripts/bench_many_files.py [--files 100000] [--keep DIR]

The repository is a git repository of N Python files of three lines each, 100 to a
folder, in one commit.  Every phase is a separate `ctxopt` process.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BODY = "def handler_{i}(event):\n    return event + {i}\n"


def make_repo(repo: Path, count: int) -> float:
    started = time.perf_counter()
    repo.mkdir(parents=True)
    for i in range(count):
        folder = repo / f"pkg{i // 100:04d}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod_{i}.py").write_text(BODY.format(i=i), encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-qm", "x"],
        check=True,
    )
    return time.perf_counter() - started


def ctxopt(*args: str) -> tuple[float, int, str, str]:
    """(seconds, exit code, stdout, stderr) of one ctxopt process."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ctxopt.cli", *args], capture_output=True, text=True
    )
    return time.perf_counter() - started, done.returncode, done.stdout, done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="build the repository here and keep it")
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="ctxopt-many-"))
    repo = base / "many"
    print(f"{args.files:,} files written and committed in {make_repo(repo, args.files):.0f} s")
    seconds, code, out, err = ctxopt("index", str(repo), "--json")
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if code != 0:
        print(f"index failed (exit {code}): {err.strip()[-2000:]}", file=sys.stderr)
        return 1
    stats = json.loads(out)
    print(
        f"index: {stats['files']:,} files, {stats['chunks']:,} chunks in {seconds:.0f} s "
        f"({stats['files'] / seconds:.0f} files/s), peak {peak_mb:.0f} MB"
    )
    target = args.files * 3 // 4
    seconds, code, out, err = ctxopt("query", f"handler_{target}", "--path", str(repo), "--json")
    found = json.loads(out) if code == 0 else []
    top = found[0]["file"] if found else err.strip() or "no hit"
    print(f"query: {seconds:.1f} s, exit {code}, top hit {top}")
    seconds, code, out, err = ctxopt("pack", f"fix handler_{target}", "--path", str(repo))
    print(f"pack: {seconds:.1f} s, exit {code}, {len(out):,} characters")
    seconds, code, out, err = ctxopt("index", str(repo), "--json")
    print(f"re-index with nothing changed: {seconds:.0f} s, exit {code}")
    ok = stats["files"] == args.files and top.endswith(f"mod_{target}.py")
    print("every file indexed and the named one found" if ok else "MISSING FILES OR WRONG HIT")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
