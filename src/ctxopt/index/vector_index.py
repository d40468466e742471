"""The approximate vector index of the chunks table, built once brute force gets slow.

Below ANN_MIN_ROWS a query compares the task's vector with every row; that grows linearly
with the table (scripts/bench_vectors.py measures it).  Past it, an IVF index with exact
distances inside the probed partitions (IVF_FLAT: the similarity a query reports stays the
true cosine, which scoring uses) answers from a few partitions.  Rows added later are
searched exactly until the index's next optimisation folds them in (the writer's finish).
"""

from __future__ import annotations

import math
from typing import Any

from ctxopt.config.environment import LANCE, quiet_library
from ctxopt.config.paths import DbLocation

ANN_MIN_ROWS = 50_000  # measured with scripts/bench_vectors.py: see README, "Vector search"
ROWS_PER_PARTITION = 1_000
INDEX_TYPE = "IVF_FLAT"


def has_vector_index(dataset: Any) -> bool:
    return any("vector" in (i.field_names or ()) for i in _indices(dataset))


def _indices(dataset: Any) -> list[Any]:
    try:
        return list(dataset.describe_indices())
    except (AttributeError, OSError, ValueError, RuntimeError):
        return []


def partitions(rows: int) -> int:
    """About ROWS_PER_PARTITION rows a partition, at least 16."""
    return max(16, math.ceil(rows / ROWS_PER_PARTITION))


def build(dataset: Any, rows: int) -> None:
    """A fresh approximate index over the vector column (cosine)."""
    dataset.create_index(
        "vector",
        INDEX_TYPE,
        metric="cosine",
        num_partitions=partitions(rows),
        replace=True,
    )


def ensure(dataset: Any, *, rebuild: bool) -> bool:
    """Build the index when the table has reached ANN_MIN_ROWS and has none (or on a full
    rebuild); whether one was built.  Smaller tables keep exact search."""
    rows = dataset.count_rows()
    if rows < ANN_MIN_ROWS or (has_vector_index(dataset) and not rebuild):
        return False
    build(dataset, rows)
    return True


def ensure_at(db: DbLocation, *, rebuild: bool) -> bool:
    """ensure() on the chunks table of the index at db, a folder or an object-store URI
    (before the run is committed)."""
    quiet_library(LANCE)  # before the import: no Rust-side warnings on stderr
    import lance

    from ctxopt.index import schema
    from ctxopt.index.location import locate

    location = locate(db)
    if not location.has_table(schema.CHUNKS):  # nothing was written (an empty repository)
        return False
    dataset = lance.dataset(location.uri(schema.CHUNKS), storage_options=location.options)
    return ensure(dataset, rebuild=rebuild)
