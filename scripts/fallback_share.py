#!/usr/bin/env python3
"""Share of files per language that fall back to line chunks, and share of lines no chunk
shows, over the clones of a split.

For each repository of scripts/benchlib/splits.toml (or the --repo given) every file git
tracks at the split's commit is read as the index reads it and chunked; a file whose
chunking reports a fallback reason (the grammar failed, timed out or is missing) counts as
fallen back. A non-blank line is *unshown* when no chunk a pack can show whole holds it and
no class outline repeats it (before 2026-11-27 a big class's body code that was no member
declaration, such as Ruby's `should "..." do` blocks, was such a line). A non-blank line is
*windowed* when no definition holds it, only a module piece: top-level code, or a stretch the
grammar's tree left to line windows (before 2026-12-07, libuv's `#else` branch of fsevents.c).
Prints one row per language: files, fallen back, share, unshown lines and their share, windowed
lines and their share, and the first files.

Examples:
  python scripts/fallback_share.py --split dev --bench-dir /tmp/bench
  python scripts/fallback_share.py --repo /tmp/bench/zod
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.splits import ROLES, split_repos
from benchlib.verbatim import verbatim_runs

if TYPE_CHECKING:
    from ctxopt.types import Chunk

MAX_BYTES = 1_000_000  # the indexer skips bigger files
SHOWN = 4  # fallen-back files listed per language


def tracked(repo: Path, commit: str) -> list[tuple[str, bytes]]:
    """(path, content) of every file of commit (git ls-tree / cat-file, no checkout)."""
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "-z", "--long", commit],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    out: list[tuple[str, bytes]] = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha, size = meta.split()
        if kind != b"blob" or size == b"-" or int(size) > MAX_BYTES or mode == b"120000":
            continue
        blob = subprocess.run(
            ["git", "-C", str(repo), "cat-file", "blob", sha.decode()],
            capture_output=True, check=True,
        ).stdout  # fmt: skip
        out.append((path.decode("utf-8", "replace"), blob))
    return out


@dataclass
class Tally:
    """What one language's files came to."""

    files: Counter[str] = field(default_factory=Counter)
    fell: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    lines: Counter[str] = field(default_factory=Counter)  # non-blank lines
    unshown: Counter[str] = field(default_factory=Counter)
    windowed: Counter[str] = field(default_factory=Counter)


def unshown_lines(lines: list[str], chunks: Sequence[Chunk]) -> int:
    """Non-blank lines that no whole chunk holds and no class outline repeats."""
    shown: set[int] = set()
    for chunk in chunks:
        runs = [(chunk.start_line, chunk.end_line)]
        if chunk.summary:
            runs = verbatim_runs(lines, chunk.start_line, chunk.end_line, chunk.text)
        for first, last in runs:
            shown.update(range(first, last + 1))
    return sum(1 for n, line in enumerate(lines, 1) if line.strip() and n not in shown)


def windowed_lines(lines: list[str], chunks: Sequence[Chunk]) -> int:
    """Non-blank lines that no definition holds, only a module piece (top-level code between
    definitions, or the line windows of code the grammar's tree did not cover)."""
    from ctxopt.types import ChunkKind

    defined: set[int] = set()
    for chunk in chunks:
        if chunk.kind is not ChunkKind.MODULE:
            defined.update(range(chunk.start_line, chunk.end_line + 1))
    return sum(1 for n, line in enumerate(lines, 1) if line.strip() and n not in defined)


def fallbacks(repo: Path, commit: str, tally: Tally) -> None:
    """Count each code file of commit in tally: by language, fallen back to line chunks or
    not, its non-blank lines and those no chunk shows."""
    from ctxopt.chunking import chunk_file
    from ctxopt.chunking.decode import decode_bytes
    from ctxopt.languages import by_name, detect_language
    from ctxopt.languages.record import Family

    for path, data in tracked(repo, commit):
        language = detect_language(path)
        record = by_name(language)
        if record is None or record.family is not Family.CODE or b"\0" in data[:8000]:
            continue
        tally.files[language] += 1
        text = decode_bytes(data, path).text
        chunked = chunk_file(path, text, language)
        if chunked.fallback_reason:
            tally.fell[language].append(f"{repo.name}/{path}")
        lines = text.split("\n")
        tally.lines[language] += sum(1 for line in lines if line.strip())
        tally.unshown[language] += unshown_lines(lines, chunked.chunks)
        tally.windowed[language] += windowed_lines(lines, chunked.chunks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--repo", type=Path, help="One git repository (at HEAD).")
    target.add_argument("--split", choices=ROLES, help="The clones of a split of splits.toml.")
    parser.add_argument("--bench-dir", type=Path, default=Path("/tmp/bench"))
    args = parser.parse_args(argv)
    if args.repo:
        targets = [(args.repo, "HEAD")]
    else:
        targets = [(args.bench_dir / r.dir, r.commit) for r in split_repos(args.split)]
    tally = Tally()
    for repo, commit in targets:
        print(f"{repo.name} ...", file=sys.stderr, flush=True)
        fallbacks(repo, commit, tally)
    files, fell = tally.files, tally.fell
    print(
        f"{'language':<12}{'files':>7}{'fallback':>10}{'share':>8}"
        f"{'lines':>9}{'unshown':>9}{'share':>8}{'windowed':>10}{'share':>8}  first files"
    )
    for language in sorted(files, key=lambda name: (-len(fell[name]) / files[name], name)):
        share = len(fell[language]) / files[language]
        unshown = tally.unshown[language] / max(tally.lines[language], 1)
        windowed = tally.windowed[language] / max(tally.lines[language], 1)
        listed = ", ".join(fell[language][:SHOWN])
        print(
            f"{language:<12}{files[language]:>7}{len(fell[language]):>10}{share:>8.3f}"
            f"{tally.lines[language]:>9}{tally.unshown[language]:>9}{unshown:>8.3f}"
            f"{tally.windowed[language]:>10}{windowed:>8.3f}  {listed}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
