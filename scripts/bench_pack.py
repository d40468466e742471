"""Benchmark `ctxopt pack` latency (warm, process start to prompt) on an indexed repository.

Usage: python scripts/bench_pack.py PATH [--runs 5] [--json]

Also reports whether torch or sentence_transformers were imported (they must not be).
Recall at the budget comes from scripts/bench_retrieval.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_query import report_latency


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report_latency(args.path, args.runs, ("pack",), args.json)


if __name__ == "__main__":
    main()
