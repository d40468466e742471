"""Scan every text file under PATH with find_secrets; print lines per second and findings.

Usage: python scripts/bench_secrets.py [PATH] [--show N] [--exclude DIR ...]
PATH defaults to this interpreter's standard library (site-packages excluded).  Files are
scanned whole (as one text), as the indexer would scan each chunk.
"""

from __future__ import annotations

import argparse
import os
import sys
import sysconfig
import time
from collections import Counter

from ctxopt.secrets import find_secrets

SKIP_DIRS = {".git", "node_modules", "__pycache__", "site-packages", ".venv", "venv"}
EXTENSIONS = {".py", ".txt", ".cfg", ".ini", ".toml", ".json", ".md", ".rst", ".c", ".h", ".sh"}
MAX_BYTES = 1_000_000


def iter_texts(root: str, exclude: set[str]) -> list[tuple[str, str]]:
    texts = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and d not in exclude)
        for name in sorted(files):
            path = os.path.join(folder, name)
            if os.path.splitext(name)[1] not in EXTENSIONS or os.path.getsize(path) > MAX_BYTES:
                continue
            with open(path, encoding="utf-8", errors="replace") as handle:
                texts.append((os.path.relpath(path, root), handle.read()))
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=sysconfig.get_paths()["stdlib"])
    parser.add_argument("--show", type=int, default=20, help="print this many findings")
    parser.add_argument("--exclude", nargs="*", default=[], help="folder names to leave out")
    args = parser.parse_args()
    texts = iter_texts(args.path, set(args.exclude))
    lines = sum(text.count("\n") + 1 for _, text in texts)
    find_secrets('password = "warm-up-1x"')  # import detect-secrets outside the timing
    started = time.perf_counter()
    results = [(path, text, find_secrets(text)) for path, text in texts]
    seconds = time.perf_counter() - started
    kinds: Counter[str] = Counter()
    shown = 0
    for path, text, findings in results:
        for found in findings:
            kinds[found.kind.value] += 1
            if shown < args.show:
                shown += 1
                line_no = text.count("\n", 0, found.start) + 1
                start = text.rfind("\n", 0, found.start) + 1
                end = text.find("\n", found.end)
                line = text[start : end if end != -1 else len(text)].strip()
                print(f"{path}:{line_no}: {found.kind.value}: {line[:160]}", file=sys.stderr)
    print(
        f"{len(texts):,} files, {lines:,} lines in {seconds:.2f} s: "
        f"{lines / seconds:,.0f} lines/s; {sum(kinds.values())} findings {dict(kinds)}"
    )


if __name__ == "__main__":
    main()
