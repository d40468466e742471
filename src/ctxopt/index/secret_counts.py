"""How many secrets the index holds, per kind, read from the chunks' stored findings."""

from __future__ import annotations

from collections import Counter

from ctxopt.index.schema import CHUNKS
from ctxopt.index.store import IndexReader


def secret_counts(reader: IndexReader) -> dict[str, int]:
    """Kind -> findings stored in the chunks table, sorted by kind ({} for an index written
    before secrets were stored)."""
    import pyarrow.compute as pc

    chunks = reader.dataset(CHUNKS)
    if "secrets" not in chunks.schema.names:
        return {}
    column = chunks.to_table(columns=["secrets"]).column("secrets")
    kinds = pc.struct_field(pc.list_flatten(column), "kind")
    counts = Counter(k for k in kinds.to_pylist() if k is not None)
    return dict(sorted(counts.items()))
