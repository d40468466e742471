"""Where a warm `pack` of `ctxopt mcp` spends its CPU time, stage by stage, in-process.

Usage: python scripts/profile_mcp_pack.py PATH [--runs 15] [--budget 8000] [--again]

Builds the server's service object for PATH (already indexed), warms it up as the server
does, then packs the tasks of bench_mcp.py (each once; --again packs them a second time, as an
agent coming back to the same code would) and prints the median CPU seconds per pack and
the mean CPU seconds of each stage (time.process_time around the stage's function).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ctxopt.app.pack as app_pack
import ctxopt.pack.packing as pack_packing
import ctxopt.pack.select as pack_select
import ctxopt.retrieve.candidates as candidates
import ctxopt.retrieve.chunk_rows as chunk_rows
import ctxopt.retrieve.search as search
from ctxopt.config.settings import load_settings
from ctxopt.mcp_server.service import PackCall, RepoService

Spent = defaultdict[str, float]

STAGES: tuple[tuple[Any, str, str], ...] = (
    (app_pack, "refresh_index", "freshness check"),
    (app_pack, "search", "retrieval"),
    (search, "gather", "  hop 1 (full-text, vector, names)"),
    (search, "expand", "  hop 2 (definitions, neighbours)"),
    (search, "add_window_evidence", "  line windows"),
    (search, "score_candidates", "  scoring"),
    (app_pack, "pack_query_result", "packing"),
    (pack_packing, "select", "  selection (renderings, counts)"),
    (pack_select, "near_duplicates", "    near-duplicates"),
    (pack_packing, "fit_prompt", "  fitting (prompt counts)"),
    (candidates.CandidateSource, "full_text", "LanceDB full-text queries"),
    (candidates.CandidateSource, "where", "LanceDB filtered scans"),
    (chunk_rows.ChunkRows, "chunks", "kept rows made chunks (server)"),
)


def instrument(spent: Spent) -> None:
    for owner, name, label in STAGES:
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, _f: Callable[..., Any] = original, _l: str = label, **kw: Any) -> Any:
            started = time.process_time()
            try:
                return _f(*args, **kw)
            finally:
                spent[_l] += time.process_time() - started

        setattr(owner, name, timed)


def series(service: RepoService, tasks: tuple[str, ...], budget: int, spent: Spent) -> None:
    spent.clear()
    cpu = []
    for task in tasks:
        started = time.process_time()
        service.pack(PackCall(task=task, budget=budget))
        cpu.append(time.process_time() - started)
    print(
        f"  CPU per pack: median {statistics.median(cpu):.3f} s, mean {statistics.mean(cpu):.3f} s"
    )
    for _, _, label in STAGES:
        print(f"    {label:38s} {spent[label] / len(tasks):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("--again", action="store_true")
    args = parser.parse_args()
    spent: Spent = defaultdict(float)
    instrument(spent)
    bench = Path(__file__).resolve().parent / "bench_mcp.py"
    spec = importlib.util.spec_from_file_location("bench_mcp", bench)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tasks_all: tuple[str, ...] = module.TASKS
    service = RepoService(load_settings(args.path.resolve()))
    try:
        service.warm_up()
        service.pack(PackCall(task=tasks_all[0], budget=args.budget))
        tasks = tuple(tasks_all[1 + i % (len(tasks_all) - 1)] for i in range(args.runs))
        print(f"{args.path}: {args.runs} warm packs, budget {args.budget}, each task once")
        series(service, tasks, args.budget, spent)
        if args.again:
            print("  the same tasks again:")
            series(service, tasks, args.budget, spent)
        fresh = getattr(service, "fresh", None)  # None: a version without the watcher
        if fresh is not None:
            print(f"  calls that skipped the freshness check: {fresh.skipped}")
    finally:
        if hasattr(service, "close"):
            service.close()


if __name__ == "__main__":
    main()
