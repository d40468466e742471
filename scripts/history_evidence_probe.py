#!/usr/bin/env python3
"""Probe: do the messages of the past commits that modified a file help rank it?

For the usable commits among a repository's newest --commits, the candidates of each message
are computed once (as `ctxopt tune` does) and each candidate gets one more feature: the BM25
of the message against its file's *history document*, the messages of the commits older than
this one (among the newest --history) that modified the file, relative to the best file.
Weights are fitted with and without that feature on the older commits and compared on the
newest quarter, held out, with the pack-like objective of `ctxopt tune` (file recall within
4k/8k/16k tokens).  The index must exist at the repository's HEAD (`ctxopt index`).

  python scripts/history_evidence_probe.py /tmp/tune/click --commits 300 --history 1500
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib.bm25 import bm25_scores, tokenize
from ctxopt.config.settings import load_settings
from ctxopt.discover.history import recent_commits
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.scoring import merge_weights
from ctxopt.retrieve.search import QueryOptions, rank
from ctxopt.tune.examples import Example, _example, task_of, usable
from ctxopt.tune.fit import as_vector, coordinate_ascent, objective, prepare


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--history", type=int, default=1500)
    args = parser.parse_args()
    started = time.process_time()
    settings = load_settings(args.repo)
    reader = IndexReader(settings.db_path)
    indexed = set(reader.file_records())
    history = recent_commits(settings.root, "HEAD", args.history)
    weights = merge_weights(embedder=reader.meta().embedder)
    examples: list[Example] = []
    for position, commit in enumerate(history[: args.commits]):
        gold = usable(commit, indexed)
        if gold is None:
            continue
        older = history[position + 1 :]
        docs: dict[str, Counter[str]] = {}
        for past in older:
            for path in past.modified:
                docs.setdefault(path, Counter()).update(tokenize(task_of(past.message)))
        task = task_of(commit.message)
        found = rank(settings, task, QueryOptions(), reader=reader, weights=weights)
        base = _example(commit.sha, found.ranked, gold)
        paths = sorted(docs)
        scores = dict(
            zip(paths, bm25_scores(tokenize(task), [docs[p] for p in paths]), strict=True)
        )
        best = max(scores.values(), default=0.0) or 1.0
        column = np.asarray([scores.get(h.chunk.path, 0.0) / best for h in found.ranked])
        features = np.column_stack([base.features, column.reshape(-1, 1)])
        examples.append(
            Example(base.sha, features, base.factor, base.tokens, base.gold_of, base.gold)
        )
    prepared = [prepare(e) for e in examples]
    held = max(5, round(len(prepared) * 0.25))
    held_out, train = prepared[:held], prepared[held:]
    start = np.append(as_vector(weights), 0.0)
    without_train = [
        type(p)(p.features[:, :-1], p.scale, p.tokens, p.gold_rows, p.starts, p.gold) for p in train
    ]
    without_held = [
        type(p)(p.features[:, :-1], p.scale, p.tokens, p.gold_rows, p.starts, p.gold)
        for p in held_out
    ]
    fitted_without = coordinate_ascent(start[:-1], without_train)
    fitted_with = coordinate_ascent(start, train)
    start_with = start.copy()
    start_with[-1] = 0.2  # the history feature at a fixed, untuned weight
    result = {
        "repo": str(args.repo),
        "examples": len(prepared),
        "held_out": held,
        "defaults": objective(start[:-1], without_held),
        "defaults+history0.2": objective(start_with, held_out),
        "tuned": objective(fitted_without, without_held),
        "tuned+history": objective(fitted_with, held_out),
        "history_weight": float(fitted_with[-1] * 1.0),
        "cpu_seconds": round(time.process_time() - started, 1),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
