"""The four latency figures of an indexed repository, process start to output, as medians.

Usage: python scripts/bench_latency.py REPO [--runs 5] [--src SRC ...] [--json]

REPO must be a git work tree already indexed by `ctxopt index` (its index folder is used
and left as it was found).  The figures, each a fresh process as a shell would start it:

- ``no_change``: `ctxopt index` with nothing changed;
- ``one_file``: `ctxopt index` after one line is appended to one tracked source file (the
  file is restored afterwards and re-indexed, untimed);
- ``query``: `ctxopt query TASK --json`;
- ``pack``: `ctxopt pack TASK --budget 8000`;
- ``no_change_served``, ``one_file_served``, ``query_served``, ``pack_served``: the same four
  through the `ctxopt` command with its background server running (started by an untimed
  first call in a private runtime folder, stopped at the end); their CPU is the calling
  process's plus the server's (its parser workers not counted).

The first four run `python -m ctxopt.cli` (the command-line code in the timed process
itself); the served ones `python -m ctxopt.launch`, which is what the `ctxopt` command runs.
A version without the background server gets no served figures.

Each ``--src`` is a source folder put first on PYTHONPATH (default: this checkout's src/).
With several, their runs alternate (A B A B ...), so a before/after comparison shares the
machine's moods; wall and CPU seconds (user + system, children included) are reported.  The
first version works in REPO; each other one in a clone of REPO's HEAD made for the run (and
removed after it), so that versions whose chunkers differ do not rebuild each other's index
in every timed run.

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
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS = (
    "fix the error raised when parsing an empty expression",
    "how does simplification of trigonometric expressions work",
    "add a test for matrix determinant of a singular matrix",
)
FIGURES = (
    "no_change",
    "one_file",
    "query",
    "pack",
    "no_change_served",
    "one_file_served",
    "query_served",
    "pack_served",
)
SERVED = {"no_change_served", "one_file_served", "query_served", "pack_served"}
EDIT = "\n# ctxopt latency benchmark edit\n"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(src: Path, repo: Path, args: list[str], runtime: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one `ctxopt ARGS` process run in repo; with runtime, through
    `ctxopt.launch` and the background server of that runtime folder (CPU: both)."""
    env = {**os.environ, "PYTHONPATH": str(src), "CTXOPT_BACKGROUND": "0"}
    command = [sys.executable, "-m", "ctxopt.cli", *args]
    server_pid = None
    if runtime is not None:
        env = {**env, "CTXOPT_BACKGROUND": "1", "XDG_RUNTIME_DIR": str(runtime)}
        command = [sys.executable, "-m", "ctxopt.launch", *args]
        server_pid = _server_pid(runtime)
    server_cpu = _process_cpu(server_pid)
    cpu, started = _cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    cpu -= _process_cpu(server_pid) - server_cpu
    if done.returncode != 0:
        sys.exit(f"ctxopt {' '.join(args)} failed: {done.stderr.decode(errors='replace')[-400:]}")
    return wall, _cpu() - cpu


def _process_cpu(pid: int | None) -> float:
    """User + system seconds a running process has used (0 without one)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ask(runtime: Path, op: str) -> dict[str, object]:
    """A status or stop request to the runtime folder's server ({} without one)."""
    import socket

    from ctxopt.background.protocol import Lines, Request, send_request

    for path in (runtime / "ctxopt").glob("*.sock"):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            try:
                conn.settimeout(300)
                conn.connect(str(path))
                send_request(conn, Request(op=op), [])
                line = Lines(conn).next()
            except OSError:
                continue
        if line and op == "status":
            answer = json.loads(line)
            return answer if isinstance(answer, dict) else {}
    return {}


def _server_pid(runtime: Path) -> int | None:
    pid = _ask(runtime, "status").get("pid")
    return pid if isinstance(pid, int) else None


def start_server(src: Path, repo: Path, runtime: Path) -> None:
    """Start the runtime folder's server with an untimed call and wait for its warm-up."""
    sys.path.insert(0, str(src))
    run(src, repo, ["query", "warm up", "--json", "--quiet"], runtime)
    deadline = time.monotonic() + 300
    while _server_pid(runtime) is None:
        if time.monotonic() > deadline:
            sys.exit("the background server did not start")
        time.sleep(0.2)
    run(src, repo, ["query", "warm up", "--json", "--quiet"], runtime)  # served: warm


def edited_file(repo: Path) -> Path:
    listed = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "*.py"], capture_output=True, text=True, check=True
    ).stdout.split()
    if not listed:
        sys.exit("no tracked Python file to change")
    return repo / sorted(listed)[len(listed) // 2]


def one_file(
    src: Path, repo: Path, target: Path, runtime: Path | None = None
) -> tuple[float, float]:
    """Index after a one-line edit; then the file as it was, indexed again (untimed)."""
    original = target.read_bytes()
    target.write_bytes(original + EDIT.encode())
    try:
        figures = run(src, repo, ["index", "--quiet"], runtime)
    finally:
        target.write_bytes(original)
    run(src, repo, ["index", "--quiet"], runtime)
    return figures


def measure(
    src: Path, repo: Path, figure: str, turn: int, target: Path, runtime: Path | None
) -> tuple[float, float]:
    task = TASKS[turn % len(TASKS)]
    if figure == "no_change_served":
        return run(src, repo, ["index", "--quiet"], runtime)
    if figure == "one_file_served":
        return one_file(src, repo, target, runtime)
    if figure == "query_served":
        return run(src, repo, ["query", task, "--json", "--quiet"], runtime)
    if figure == "pack_served":
        return run(src, repo, ["pack", task, "--budget", "8000", "--quiet"], runtime)
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
    with tempfile.TemporaryDirectory(prefix="ctxopt-bench-repos-") as clones:
        repos = {src: repo if n == 0 else _clone(repo, Path(clones) / f"v{n}")
                 for n, src in enumerate(sources)}  # fmt: skip
        return _bench(repos, runs, compile_sources=compile_sources)


def _clone(repo: Path, folder: Path) -> Path:
    """A clone of repo's HEAD in folder, for one more version to index on its own."""
    subprocess.run(["git", "clone", "--quiet", str(repo), str(folder)], check=True)
    return folder


def _bench(
    repos: dict[Path, Path], runs: int, *, compile_sources: bool
) -> dict[str, dict[str, dict[str, float]]]:
    """The figures of each version (source folder) in its own work tree (repos)."""
    sources = list(repos)
    targets = {src: edited_file(repo) for src, repo in repos.items()}
    if compile_sources:
        for src in sources:  # as an installed package has its bytecode
            compileall.compile_dir(str(src), quiet=1)
    for src, repo in repos.items():  # warm up: caches, and an index each version has seen fresh
        run(src, repo, ["index", "--quiet"])
        run(src, repo, ["query", "warm up", "--json", "--quiet"])
    runtimes = {src: _runtime_folder(src) for src in sources}
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    try:
        for figure in FIGURES:
            if figure in SERVED:
                for src, runtime in runtimes.items():
                    if runtime is not None and _server_pid(runtime) is None:
                        start_server(src, repos[src], runtime)
            for turn in range(runs):
                for src in sources:
                    runtime = runtimes[src]
                    if figure in SERVED and runtime is None:
                        continue
                    samples.setdefault((str(src), figure), []).append(
                        measure(src, repos[src], figure, turn, targets[src], runtime)
                    )
    finally:
        for runtime in runtimes.values():
            if runtime is not None:
                _ask(runtime, "stop")
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


def _runtime_folder(src: Path) -> Path | None:
    """A private runtime folder for the version's background server (None: it has none)."""
    if not (src / "ctxopt" / "background").is_dir():
        return None
    return Path(tempfile.mkdtemp(prefix="ctxopt-bench-run-"))


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
    missing = [str(s) for s in sources if not (s / "ctxopt").is_dir()]
    if missing:  # else Python would import whatever ctxopt is installed, silently
        sys.exit(f"--src {missing[0]} holds no ctxopt package")
    report = bench(args.repo.resolve(), sources, args.runs, compile_sources=not args.no_compile)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for src, rows in report.items():
        print(src)
        for figure in FIGURES:
            if figure not in rows:
                continue
            row = rows[figure]
            print(
                f"  {figure:>12}: wall median {row['wall_median_s']:.3f} s"
                f" ({row['wall_min_s']:.3f}-{row['wall_max_s']:.3f}),"
                f" CPU median {row['cpu_median_s']:.3f} s"
            )


if __name__ == "__main__":
    main()
