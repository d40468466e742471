"""Token reduction per compression level over a folder, with parse-error parity checks.

Usage: python scripts/bench_compression.py PATH [--max-files N] [--max-bytes B] [--exclude DIR]...

Files are matched to languages by extension (ctxopt.languages.detect_language); each is
compressed at every level, light and medium output is re-parsed and compared with the
input's ERROR/MISSING count, and totals per language and level are printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ctxopt import tokens
from ctxopt.languages import detect_language
from ctxopt.pack.compress import GRAMMAR_LANGUAGES, LEVELS, compress, raw_parse_errors


def _files(
    root: Path, max_files: int, max_bytes: int, exclude: list[str]
) -> list[tuple[Path, str]]:
    found = []
    for path in sorted(root.rglob("*")):
        language = detect_language(path.name)
        if exclude and set(path.relative_to(root).parts) & set(exclude):
            continue
        if path.is_file() and language in GRAMMAR_LANGUAGES and path.stat().st_size <= max_bytes:
            found.append((path, language))
    return found[:max_files]


def _measure(path: Path, language: str, totals: dict, failures: list[str]) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return
    before = raw_parse_errors(text, language)
    row = totals[language]
    row["files"] += 1
    for level in LEVELS:
        out = compress(text, language, level)
        row[level] += tokens.count(out)
        if level in ("light", "medium") and raw_parse_errors(out, language) > before:
            failures.append(f"{path} ({level})")


def _print(totals: dict, failures: list[str], seconds: float) -> None:
    header = f"{'language':<12}{'files':>7}" + "".join(f"{lv:>12}" for lv in LEVELS)
    print(header)
    grand: dict[str, int] = defaultdict(int)
    for language, row in sorted(totals.items()):
        for key, value in row.items():
            grand[key] += value
        _print_row(language, row)
    _print_row("TOTAL", grand)
    print(f"parse-error parity failures (light/medium): {len(failures)}; {seconds:.1f}s")
    for failure in failures[:20]:
        print("  ", failure)


def _print_row(name: str, row: dict) -> None:
    base = row["none"] or 1
    cells = "".join(f"{row[lv]:>12,}" for lv in LEVELS)
    print(f"{name:<12}{row['files']:>7}{cells}")
    pct = "".join(f"{100 * (1 - row[lv] / base):>11.1f}%" for lv in LEVELS)
    print(f"{'':<12}{'':>7}{pct}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--max-files", type=int, default=100_000)
    parser.add_argument("--max-bytes", type=int, default=1_000_000)
    parser.add_argument("--exclude", action="append", default=[], help="skip this folder name")
    args = parser.parse_args()
    totals: dict = defaultdict(lambda: defaultdict(int))
    failures: list[str] = []
    started = time.perf_counter()
    for path, language in _files(args.path, args.max_files, args.max_bytes, args.exclude):
        _measure(path, language, totals, failures)
    _print(totals, failures, time.perf_counter() - started)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
