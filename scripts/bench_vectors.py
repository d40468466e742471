"""Where brute-force vector search gets slow: query time against table size, with and without
an approximate index.

Usage: python scripts/bench_vectors.py [--sizes 20000,100000,400000] [--queries 15] [--json]

For each size, a Lance table of clustered unit vectors (256 dimensions, as the static
model's) is searched as ctxopt's query does (k=100, cosine, prefilter); then the
approximate index ctxopt builds past its threshold (index/vector_index.py) is added and
the same queries run again: median milliseconds per query, the index's build seconds, and
its recall of the exact top 100.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ctxopt.index import vector_index

DIMENSIONS = 256
K = 100


def clustered(rows: int, seed: int) -> np.ndarray:
    """Unit vectors around a few hundred centres, as chunks of one code base cluster."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(max(8, rows // 500), DIMENSIONS)).astype(np.float32)
    vectors = centres[rng.integers(0, len(centres), rows)] + 0.6 * rng.normal(
        size=(rows, DIMENSIONS)
    ).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def table(vectors: np.ndarray) -> Any:
    import pyarrow as pa

    flat = pa.array(vectors.reshape(-1))
    ids = pa.array([f"c{i}" for i in range(len(vectors))])
    column = pa.FixedSizeListArray.from_arrays(flat, DIMENSIONS)
    return pa.table({"id": ids, "kind": pa.array(["function"] * len(vectors)), "vector": column})


def search(dataset: Any, queries: np.ndarray) -> tuple[float, list[set[str]]]:
    times, found = [], []
    for query in queries:
        started = time.perf_counter()
        result = dataset.to_table(
            nearest={"column": "vector", "q": query, "k": K, "metric": "cosine"},
            columns=["id", "_distance"],
            filter="kind != 'x'",
            prefilter=True,
        )
        times.append(time.perf_counter() - started)
        found.append(set(result.column("id").to_pylist()))
    return statistics.median(times) * 1000, found


def measure(rows: int, queries: int, folder: Path) -> dict[str, Any]:
    import lance

    vectors = clustered(rows, seed=rows)
    dataset = lance.write_dataset(table(vectors), str(folder / f"t{rows}.lance"))
    asked = clustered(queries, seed=1)
    flat_ms, exact = search(dataset, asked)
    started = time.perf_counter()
    vector_index.build(dataset, rows)
    build_s = time.perf_counter() - started
    indexed = lance.dataset(str(folder / f"t{rows}.lance"))
    ann_ms, approx = search(indexed, asked)
    recall = statistics.mean(len(a & e) / K for a, e in zip(approx, exact, strict=True))
    return {
        "rows": rows,
        "flat_ms": round(flat_ms, 1),
        "indexed_ms": round(ann_ms, 1),
        "build_s": round(build_s, 2),
        "recall_at_100": round(recall, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,100000,400000")
    parser.add_argument("--queries", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="ctxopt-vectors-") as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            rows.append(measure(size, args.queries, Path(tmp)))
            if not args.json:
                row = rows[-1]
                print(
                    f"{row['rows']:>9,} rows: brute force {row['flat_ms']:7.1f} ms, "
                    f"indexed {row['indexed_ms']:6.1f} ms (built in {row['build_s']:.1f} s, "
                    f"recall@100 {row['recall_at_100']:.3f})",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
