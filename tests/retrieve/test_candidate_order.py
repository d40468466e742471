"""Ties in LanceDB's answer come in no fixed order; candidates must not."""

import itertools

from ctxopt.retrieve.candidates import by_score
from ctxopt.types import Chunk, ChunkKind


def chunk(path: str, start: int) -> Chunk:
    return Chunk(
        id=f"{path}:{start}", path=path, language="python", kind=ChunkKind.FUNCTION,
        name="f", qualified_name="f", signature="def f()", docstring="", start_line=start,
        end_line=start + 2, text="x", tokens=10, content_hash=f"{path}{start}",
    )  # fmt: skip


def test_equal_scores_are_ordered_by_path_and_line_whatever_order_they_came_in() -> None:
    hits = [(chunk("b.py", 1), 2.0), (chunk("a.py", 9), 2.0), (chunk("a.py", 3), 2.0),
            (chunk("z.py", 1), 5.0), (chunk("c.py", 1), 0.5)]  # fmt: skip
    orders = {
        tuple((c.path, c.start_line) for c, _ in by_score(list(p)))
        for p in itertools.permutations(hits)
    }
    assert orders == {(("z.py", 1), ("a.py", 3), ("a.py", 9), ("b.py", 1), ("c.py", 1))}
