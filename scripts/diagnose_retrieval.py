#!/usr/bin/env python3
"""Where ctxopt's pack loses the changed lines of commits: a diagnosis for tuning.

Mines the same cases as bench_retrieval.py, builds ctxopt's pack in process at each budget,
and sorts every changed line into one category: shown, shown-partly, turned-away (with the
reason: budget, per-file cap, near-duplicate, fitting the prompt), not-candidate, no-chunk.
The table gives each category's mean share of a case's changed lines, and two reference
points in the same room (benchlib/bounds.py): the ranked chunks taken whole in rank order,
and an oracle that picks whole chunks knowing the changed lines; --json adds every case's
lines.

Example:
  python scripts/diagnose_retrieval.py --repo /tmp/bench/click --cases 40 --budgets 8000
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.diagnose import (
    BOUNDS,
    CATEGORIES,
    LineFate,
    diagnose_case,
    summarise_bounds,
    summarise_fates,
)
from benchlib.gitutil import BenchError
from benchlib.mine import mine_cases
from benchlib.worktree import WorkTree


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("--repo", type=Path, required=True, help="Git repository to mine.")
    parser.add_argument("--cases", type=int, default=40, help="Newest eligible commits (40).")
    parser.add_argument(
        "--budgets",
        type=lambda text: tuple(int(part) for part in text.split(",") if part.strip()),
        default=(4000, 8000, 16000),
        help="Token budgets, e.g. 4000,8000.",
    )
    parser.add_argument("--work", type=Path, help="Folder for the work tree (default: temp).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> dict[str, object]:
    if args.cases <= 0 or not args.budgets or min(args.budgets) <= 0:
        raise BenchError("--cases and --budgets need positive numbers")
    if not (args.repo / ".git").exists() and not (args.repo / "HEAD").exists():
        raise BenchError(f"{args.repo} is not a git repository; pass one with --repo")
    mined = mine_cases(args.repo, args.cases)
    if not mined.cases:
        raise BenchError("no eligible commits in this repository's history")
    fates: dict[int, list[list[LineFate]]] = {b: [] for b in args.budgets}
    bounds: dict[int, list[dict[str, float]]] = {b: [] for b in args.budgets}
    details = []
    with WorkTree(args.repo, args.work) as tree:
        for i, case in enumerate(mined.cases, 1):
            print(f"[{i}/{len(mined.cases)}] {case.sha[:10]} {case.subject[:60]}", file=sys.stderr)
            tree.checkout(case.parent)
            by_budget = diagnose_case(case, tree.path, args.budgets)
            for budget, diagnosis in by_budget.items():
                fates[budget].append(diagnosis.fates)
                bounds[budget].append(diagnosis.bounds)
            details.append(
                {
                    "sha": case.sha,
                    "task": case.subject,
                    "lines": {str(b): [asdict(f) for f in d.fates] for b, d in by_budget.items()},
                    "bounds": {str(b): d.bounds for b, d in by_budget.items()},
                }
            )
    return {
        "repo": args.repo.resolve().name,
        "cases": len(mined.cases),
        "budgets": {
            str(b): summarise_fates(per_case) | {"bounds": summarise_bounds(bounds[b])}
            for b, per_case in fates.items()
        },
        "details": details,
    }


def render_table(report: dict[str, object]) -> str:
    budgets = report["budgets"]
    assert isinstance(budgets, dict)
    rows = [f"{report['repo']}: {report['cases']} cases; mean share of a case's changed lines"]
    rows.append("category".ljust(16) + "".join(f"{b:>10}" for b in budgets))
    for category in CATEGORIES:
        cells = "".join(f"{s['categories'][category]:>10.3f}" for s in budgets.values())
        rows.append(category.ljust(16) + cells)
    reasons = sorted({r for s in budgets.values() for r in s["turned_away_by"]})
    for reason in reasons:
        cells = "".join(f"{s['turned_away_by'].get(reason, 0.0):>10.3f}" for s in budgets.values())
        rows.append(f"  {reason}"[:16].ljust(16) + cells)
    rows.append("same room, whole chunks:")
    for name in BOUNDS:
        cells = "".join(f"{s['bounds'][name]:>10.3f}" for s in budgets.values())
        rows.append(f"  {name}".ljust(16) + cells)
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        report = run(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        sys.stdout.write(render_table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
