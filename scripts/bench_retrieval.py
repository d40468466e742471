#!/usr/bin/env python3
"""Retrieval benchmark: can a method find the code a commit changed from its message alone?

Cases are mined from a repository's history (task = commit message, gold = the source
files it modified and their pre-commit changed lines). For each case the parent commit is
checked out in one reused work tree and every method fills each token budget:

  ctxopt       `ctxopt index` then `ctxopt pack` (--mode pack) or `ctxopt query` (--mode query)
  bm25-file    BM25 over whole source files
  bm25-window  BM25 over non-overlapping 60-line windows of every text file
  bm25-code-window  the same windows of source files only, the files a case's gold can
               hold (docs, changelogs and data never take its room)
  bm25-sliding BM25 over 60-line windows starting every 30 lines; a window overlapping one
               already chosen is skipped (not run by default)
  ctxopt-tuned ctxopt with the weights `ctxopt tune` fits, at the oldest case's parent, on
               the commits before it (no case commit nor anything after one is seen)

Metrics per method and budget, averaged over cases: file recall, hit rate, changed-line
coverage, mean prompt tokens (ctxopt's pack: the rendered prompt as `pack --json` counts it)
and the number of cases whose prompt is over its budget (`over_budget`). Progress goes to
stderr; the table (or --json) to stdout.

Beside those, the share of cases with every changed file shown, and the share whose changed
functions (the chunks the changed lines fall in) are all shown whole or by their changed lines.

A whole split of scripts/benchlib/splits.toml (--split dev|test) runs its repositories one after
the other, each mined up to the commit the file records, and reports each and the overall mean
over all cases. --merge re-renders saved --json outputs (of single-repository runs or of whole
splits) as a split; the methods of separate runs of one repository are put side by side.

Examples:
  python scripts/bench_retrieval.py --repo /tmp/bench/click --methods bm25-file,bm25-window
  python scripts/bench_retrieval.py --split test --bench-dir /tmp/bench --runner library
  python scripts/bench_retrieval.py --split test --merge out/requests.json out/chi.json
  python scripts/bench_retrieval.py --split test --merge out/baselines.json out/ctxopt.json
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.gitutil import BenchError
from benchlib.report import render_table, to_json
from benchlib.run import DEFAULT_METHODS, METHODS, RunOptions, run_benchmark
from benchlib.split_report import RepoScores, from_json, from_report, render_split, split_json
from benchlib.splits import ROLES, SplitRepo, split_repos


def _int_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected numbers like 4000,8000: {text!r}") from exc


def _name_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--repo", type=Path, help="Git repository to mine.")
    target.add_argument("--split", choices=ROLES, help="Run a split of benchlib/splits.toml.")
    parser.add_argument(
        "--bench-dir",
        type=Path,
        default=Path("/tmp/bench"),
        help="Folder holding the split's clones, one per `dir` of splits.toml (/tmp/bench).",
    )
    parser.add_argument(
        "--only", type=_name_list, default=(), help="With --split: these folders only."
    )
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        help="With --split: render saved --json outputs (of repositories or splits), run nothing.",
    )
    parser.add_argument("--cases", type=int, default=40, help="Newest eligible commits (40).")
    parser.add_argument(
        "--budgets", type=_int_list, default=(4000, 8000, 16000), help="Token budgets."
    )
    parser.add_argument(
        "--methods",
        type=_name_list,
        default=DEFAULT_METHODS,
        help=f"Comma-separated methods of {','.join(METHODS)} "
        f"(default {','.join(DEFAULT_METHODS)}; ctxopt-tuned needs --runner library).",
    )
    parser.add_argument("--mode", choices=("pack", "query"), default="pack", help="ctxopt path.")
    parser.add_argument("--since", help="Only commits after this revision.")
    parser.add_argument(
        "--head", default="HEAD", help="With --repo: mine commits reachable from this (HEAD)."
    )
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


def _options(args: argparse.Namespace, repo: Path, head: str = "HEAD") -> RunOptions:
    return RunOptions(
        repo=repo,
        cases=args.cases,
        budgets=args.budgets,
        methods=args.methods,
        mode=args.mode,
        since=args.since,
        work=args.work,
        runner=args.runner,
        head=head,
    )


def _run_split(args: argparse.Namespace) -> tuple[list[RepoScores], list[dict[str, object]]]:
    repos: list[SplitRepo] = split_repos(args.split, args.only)
    missing = [r.dir for r in repos if not (args.bench_dir / r.dir).exists()]
    if missing:
        raise BenchError(
            f"no clone of {', '.join(missing)} under {args.bench_dir}; "
            "git clone each repository of scripts/benchlib/splits.toml there, or pass --bench-dir"
        )
    scores: list[RepoScores] = []
    details: list[dict[str, object]] = []
    for repo in repos:
        _progress(f"== {repo.repo} ({repo.language}) up to {repo.commit[:12]}")
        report = run_benchmark(_options(args, args.bench_dir / repo.dir, repo.commit), _progress)
        scores.append(from_report(report, repo.dir, repo.language))
        details.append(to_json(report))
    return scores, details


def _merge(args: argparse.Namespace) -> tuple[list[RepoScores], list[dict[str, object]]]:
    """The saved runs' scores by repository, in the order first met; a repository's methods
    from several files side by side (the same method of one repository twice is an error)."""
    languages = {r.dir: r.language for r in split_repos(args.split)}
    scores: dict[str, RepoScores] = {}
    details: list[dict[str, object]] = []
    for path in args.merge:
        for data in _saved_runs(path):
            name = str(data.get("repo", path.stem))
            try:
                found = from_json(data, name, languages.get(name, ""))
            except (KeyError, TypeError, ValueError) as exc:
                raise BenchError(
                    f"{path}: {name}'s cases are not as bench_retrieval.py writes them"
                ) from exc
            known = scores.setdefault(name, replace(found, scores={}))
            twice = sorted(set(known.scores) & set(found.scores))
            if twice:
                raise BenchError(f"{path}: {name} has {', '.join(twice)} in an earlier file too")
            known.scores.update(found.scores)
            details.append(data)
    return list(scores.values()), details


def _saved_runs(path: Path) -> list[dict[str, Any]]:
    """The single-repository runs a saved --json output holds (a split's holds several)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BenchError(f"cannot read {path}: {exc}") from exc
    runs = data.get("runs", [data]) if isinstance(data, dict) else None
    if not isinstance(runs, list) or not all(
        isinstance(r, dict) and isinstance(r.get("details"), list) for r in runs
    ):
        raise BenchError(f"{path} is not the --json output of bench_retrieval.py")
    return runs


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.split:
            scores, details = _merge(args) if args.merge else _run_split(args)
            if args.json:
                print(json.dumps(split_json(args.split, scores, details), indent=2))
            else:
                sys.stdout.write(render_split(args.split, scores))
            return 0
        if args.merge or args.only:
            raise BenchError("--merge and --only go with --split")
        report = run_benchmark(_options(args, args.repo, args.head), _progress)
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
