#!/usr/bin/env python3
"""Retrieval benchmark: can a method find the code a commit changed from its message alone?

Cases are mined from a repository's history (task = commit message, gold = the source
files it modified and their pre-commit changed lines). For each case the parent commit is
checked out in one reused work tree and every method fills each token budget:

  ctxopt       `ctxopt index` then `ctxopt pack` (--mode pack) or `ctxopt query` (--mode query)
  bm25-file    BM25 over whole source files
  bm25-window  BM25 over non-overlapping 60-line windows

Metrics per method and budget, averaged over cases: file recall, hit rate, changed-line
coverage and mean tokens used. Progress goes to stderr; the table (or --json) to stdout.

Example:
  python scripts/bench_retrieval.py --repo /tmp/bench/click --methods bm25-file,bm25-window
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.gitutil import BenchError
from benchlib.report import render_table, to_json
from benchlib.run import METHODS, RunOptions, run_benchmark


def _int_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected numbers like 4000,8000: {text!r}") from exc


def _name_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("--repo", type=Path, required=True, help="Git repository to mine.")
    parser.add_argument("--cases", type=int, default=40, help="Newest eligible commits (40).")
    parser.add_argument(
        "--budgets", type=_int_list, default=(4000, 8000, 16000), help="Token budgets."
    )
    parser.add_argument(
        "--methods",
        type=_name_list,
        default=METHODS,
        help=f"Comma-separated methods (default {','.join(METHODS)}).",
    )
    parser.add_argument("--mode", choices=("pack", "query"), default="pack", help="ctxopt path.")
    parser.add_argument("--since", help="Only commits after this revision.")
    parser.add_argument("--work", type=Path, help="Folder for the work tree (default: temp).")
    parser.add_argument(
        "--runner",
        choices=("cli", "library"),
        default="cli",
        help="Run ctxopt as the CLI (as users do) or in this process (faster, for tuning).",
    )
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    return parser.parse_args(argv)


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    options = RunOptions(
        repo=args.repo,
        cases=args.cases,
        budgets=args.budgets,
        methods=args.methods,
        mode=args.mode,
        since=args.since,
        work=args.work,
        runner=args.runner,
    )
    try:
        report = run_benchmark(options, _progress)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(to_json(report), indent=2))
    else:
        sys.stdout.write(render_table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
