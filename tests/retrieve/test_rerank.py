"""Reranking the best hits: the cross-encoder's verdict is added to their scores, the rest of
the ranking is left as it was, and every lift is on record for --explain."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ctxopt.retrieve.rerank import PASSAGE_CHARS, PairScorer, passage, rerank
from ctxopt.types import Chunk, ChunkKind, ScoredChunk


def hit(name: str, score: float, text: str = "") -> ScoredChunk:
    chunk = Chunk(
        id=name,
        path=f"src/{name}.py",
        language="python",
        kind=ChunkKind.FUNCTION,
        name=name,
        qualified_name=name,
        signature=f"def {name}():",
        docstring="",
        start_line=1,
        end_line=3,
        text=text or f"def {name}():\n    pass\n",
        tokens=10,
        content_hash=name,
    )
    return ScoredChunk(chunk, score, {"lexical": score}, ("full-text #1",), {"lexical": score})


def logits_by_name(verdicts: dict[str, float]) -> tuple[PairScorer, list[str]]:
    """A pair scorer giving each hit's logit by its name, and the passages it was given."""
    seen: list[str] = []

    def score(task: str, passages: Sequence[str]) -> list[float]:
        assert task == "retry after a 413"
        seen.extend(passages)
        return [verdicts[p.split("\n", 1)[0][4:-3]] for p in passages]

    return score, seen


def test_the_hit_the_model_rates_best_rises_and_the_rest_keep_their_place() -> None:
    ranked = [hit("a", 0.60), hit("b", 0.55), hit("c", 0.50), hit("d", 0.40), hit("e", 0.39)]
    score, seen = logits_by_name({"a": -8.0, "b": -8.0, "c": 6.0})
    out = rerank("retry after a 413", ranked, score, top=3, weight=0.2)
    assert [h.chunk.name for h in out] == ["c", "a", "b", "d", "e"]
    assert len(seen) == 3  # only the top three were read
    lifted = {h.chunk.name: h for h in out}
    assert lifted["c"].factors["rerank"] > 0.15
    assert lifted["c"].score == pytest.approx(0.50 + lifted["c"].factors["rerank"], abs=1e-5)
    assert lifted["a"].factors["rerank"] == 0.0  # the least likely of the top gains nothing
    assert 0.0 < lifted["a"].features["rerank"] < lifted["c"].features["rerank"] < 1.0
    assert "rerank" not in lifted["d"].factors and lifted["d"].score == 0.40


def test_hits_the_model_rates_alike_keep_their_order() -> None:
    ranked = [hit("a", 0.60), hit("b", 0.55), hit("c", 0.50)]
    score, _ = logits_by_name({"a": 1.0, "b": 1.0, "c": 1.0})
    out = rerank("retry after a 413", ranked, score)
    assert [(h.chunk.name, h.score) for h in out] == [("a", 0.60), ("b", 0.55), ("c", 0.50)]


def test_a_single_hit_is_not_scored() -> None:
    def never(task: str, passages: Sequence[str]) -> list[float]:
        raise AssertionError("no pair to compare")

    only = [hit("a", 0.6)]
    assert rerank("retry after a 413", only, never) == only
    assert rerank("retry after a 413", [], never) == []


def test_the_model_reads_the_path_then_the_start_of_the_text() -> None:
    long = hit("big", 0.5, "x = 1\n" * 2000)
    text = passage(long.chunk)
    assert text.startswith("src/big.py\nx = 1\n")
    assert len(text) == len("src/big.py\n") + PASSAGE_CHARS
