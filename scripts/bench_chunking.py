"""Chunk every supported file under PATH and print lines per second.

Usage: python scripts/bench_chunking.py PATH [--limit N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

from ctxopt.chunking import chunk_file, read_source
from ctxopt.languages import detect_language

SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv"}
MAX_BYTES = 1_000_000


def iter_files(root: str) -> list[tuple[str, str]]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            abs_path = os.path.join(folder, name)
            language = detect_language(name)
            if language == "text" or os.path.getsize(abs_path) > MAX_BYTES:
                continue
            found.append((abs_path, language))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path")
    parser.add_argument("--limit", type=int, default=0, help="stop after N files")
    args = parser.parse_args()
    files = iter_files(args.path)
    if args.limit:
        files = files[: args.limit]
    texts = [(p, lang, read_source(p)[0]) for p, lang in files]
    total_lines = sum(t.count("\n") + 1 for _, _, t in texts)
    fallbacks: Counter[str] = Counter()
    chunks = 0
    started = time.perf_counter()
    for abs_path, language, text in texts:
        rel = os.path.relpath(abs_path, args.path).replace(os.sep, "/")
        result = chunk_file(rel, text, language)
        chunks += len(result.chunks)
        if result.fallback_reason:
            fallbacks[result.fallback_reason.split(":")[0]] += 1
    seconds = time.perf_counter() - started
    rate = total_lines / seconds if seconds else 0.0
    print(f"files={len(texts)} lines={total_lines} chunks={chunks} seconds={seconds:.2f}")
    print(f"lines/s={rate:,.0f}  fallbacks={dict(fallbacks)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
