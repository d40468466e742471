#!/usr/bin/env python3
"""Fit ctxopt's default ranking weights on one half of a split and check them on the other.

`extract` ranks each case of a split once, with its index at the commit's parent and the
default weights, and stores every candidate's factors, tokens and the changed lines it holds
(JSON).  `fit` moves one weight at a time (coordinate ascent) on the first file's cases, scored
by a model of the pack (benchlib/pack_model.py: changed lines and files at 4k / 8k / 16k), and
reports the start and the fit on both files.  A move that does not also help the second file
does not generalise.  Whatever it finds still has to win in bench_retrieval.py's real packs.

Example:
  python scripts/fit_weights.py extract --split dev --only click,rich --out /tmp/a.json
  python scripts/fit_weights.py extract --split dev --only ky,zod --out /tmp/b.json
  python scripts/fit_weights.py fit /tmp/a.json /tmp/b.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.gitutil import BenchError
from benchlib.mine import Case, mine_cases
from benchlib.pack_model import Candidate, StoredCase, mean_shares
from benchlib.splits import split_repos
from benchlib.worktree import WorkTree

BUDGETS = (4000, 8000, 16000)
GRID = (0.0, 0.03, 0.1, 0.2, 0.3, 0.5)
MIN_GAIN = 0.002
KEEP_ON = ("window",)  # switches work on at query time: the fit may lower it, not zero it
NOT_FITTED = ("semantic", "history")  # zero by default: their signals were not computed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    extract = sub.add_parser("extract", help="Rank a split's cases once and store candidates.")
    extract.add_argument("--split", required=True, choices=("dev", "test", "heldout"))
    extract.add_argument("--only", default="", help="Comma-separated folders of the split.")
    extract.add_argument("--bench-dir", type=Path, default=Path("/tmp/bench"))
    extract.add_argument("--cases", type=int, default=40)
    extract.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("fit", help="Fit on the first file, check on the second.")
    fit.add_argument("train", type=Path)
    fit.add_argument("check", type=Path)
    return parser.parse_args(argv)


def stored_case(repo: str, case: Case, worktree: Path) -> tuple[list[str], StoredCase]:
    from ctxopt.config.settings import load_settings
    from ctxopt.index.build import build_index
    from ctxopt.index.store import IndexReader
    from ctxopt.retrieve.scoring import DEFAULT_WEIGHTS, penalty_factor
    from ctxopt.retrieve.search import QueryOptions, rank

    settings = load_settings(worktree)
    build_index(settings)
    found = rank(settings, case.task, QueryOptions(), reader=IndexReader(settings.db_path))
    names = list(DEFAULT_WEIGHTS)
    gold = {g.path: g.lines for g in case.gold}
    candidates = []
    for hit in found.ranked:
        chunk = hit.chunk
        lines = gold.get(chunk.path, ())
        shown = 0 if chunk.summary else sum(chunk.start_line <= n <= chunk.end_line for n in lines)
        candidates.append(
            Candidate(
                chunk.path,
                chunk.tokens,
                tuple(hit.features.get(name, 0.0) for name in names),
                penalty_factor(hit),
                shown,
            )
        )
    changed = sum(len(lines) for lines in gold.values())
    return names, StoredCase(repo, case.sha, tuple(candidates), changed, frozenset(gold))


def extract(args: argparse.Namespace) -> None:
    only = [name for name in args.only.split(",") if name]
    names: list[str] = []
    rows = []
    for repo in split_repos(args.split, only):
        mined = mine_cases(args.bench_dir / repo.dir, args.cases, head=repo.commit)
        with WorkTree(args.bench_dir / repo.dir) as tree:
            for i, case in enumerate(mined.cases, 1):
                print(f"{repo.dir} [{i}/{len(mined.cases)}] {case.sha[:10]}", file=sys.stderr)
                tree.checkout(case.parent)
                names, stored = stored_case(repo.dir, case, tree.path)
                rows.append(stored)
    payload = {
        "features": names,
        "cases": [
            {
                "repo": c.repo,
                "sha": c.sha,
                "changed_lines": c.changed_lines,
                "changed_files": sorted(c.changed_files),
                "candidates": [
                    [k.path, k.tokens, list(k.factors), k.penalty, k.changed] for k in c.candidates
                ],
            }
            for c in rows
        ],
    }
    args.out.write_text(json.dumps(payload))


def load(path: Path) -> tuple[list[str], list[StoredCase]]:
    try:
        data = json.loads(path.read_text())
        return data["features"], _cases(data)
    except OSError as exc:
        raise BenchError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError):
        raise BenchError(f"{path} is not a file of `fit_weights.py extract`") from None


def _cases(data: dict[str, Any]) -> list[StoredCase]:
    return [
        StoredCase(
            c["repo"],
            c["sha"],
            tuple(Candidate(p, t, tuple(f), pen, ch) for p, t, f, pen, ch in c["candidates"]),
            c["changed_lines"],
            frozenset(c["changed_files"]),
        )
        for c in data["cases"]
    ]


def objective(cases: Sequence[StoredCase], weights: Sequence[float]) -> float:
    lines, files = mean_shares(cases, weights, BUDGETS)
    return (sum(lines) + sum(files)) / (2 * len(BUDGETS))


def describe(label: str, cases: Sequence[StoredCase], weights: Sequence[float]) -> str:
    lines, files = mean_shares(cases, weights, BUDGETS)
    shown = " / ".join(f"{v:.3f}" for v in lines)
    found = " / ".join(f"{v:.3f}" for v in files)
    return f"{label}: lines {shown}, files {found} ({len(cases)} cases)"


def fit(args: argparse.Namespace) -> None:
    from ctxopt.retrieve.scoring import DEFAULT_WEIGHTS

    names, train = load(args.train)
    _, check = load(args.check)
    start = [DEFAULT_WEIGHTS[name] for name in names]
    weights = list(start)
    best = objective(train, weights)
    for _ in range(2):
        moved = False
        for j, name in enumerate(names):
            if name in NOT_FITTED:
                continue
            current = weights[j]
            values = sorted({*GRID, current * 0.5, current * 1.5, current * 2.0} - {current})
            for value in values:
                if name in KEEP_ON and value <= 0:
                    continue
                trial = [*weights[:j], value, *weights[j + 1 :]]
                score = objective(train, trial)
                if score > best + MIN_GAIN:
                    best, weights, moved = score, trial, True
                    print(f"move {name} {current:g} -> {value:g}: {best:.4f}", file=sys.stderr)
        if not moved:
            break
    moves = [f"{n} {a:g} -> {b:g}" for n, a, b in zip(names, start, weights, strict=True) if a != b]
    print(f"moves: {', '.join(moves) or 'none'}")
    for label, cases in (("fit on", train), ("checked on", check)):
        print(describe(f"{label} {args.train if cases is train else args.check}, defaults",
                       cases, start))  # fmt: skip
        print(describe("  fitted", cases, weights))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.command == "extract":
            extract(args)
        else:
            fit(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
