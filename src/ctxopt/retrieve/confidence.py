"""How sure a ranking is that it found the code a task is about: one figure that `query`
and `pack` both report (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from ctxopt.terms import split_identifier, unspaced
from ctxopt.types import Entities, ScoredChunk

TOP_HITS = 5  # the hits whose text is searched for the task's words
NAMED_TOP = 20  # a hit the task names among these ...
NAMED_FLOOR = 0.9  # ... makes the figure at least this
TEXT_CHARS = 4000  # of each top hit's text


def retrieval_confidence(entities: Entities, hits: Sequence[ScoredChunk]) -> float:
    """0..1: the share of the task's words found in the top hits; high when it names one."""
    if not hits:
        return 0.0
    words = {part for w in entities.words for part in _pieces(w.lower())}
    words.update(p for ident in entities.identifiers for p in split_identifier(ident))
    if not words:
        return 0.0
    seen = " ".join(
        f"{h.chunk.path} {h.chunk.qualified_name} {h.chunk.text[:TEXT_CHARS]}"
        for h in hits[:TOP_HITS]
    ).lower()
    coverage = sum(1 for word in words if word in seen) / len(words)
    if any(h.named_by_task for h in hits[:NAMED_TOP]):
        coverage = max(coverage, NAMED_FLOOR)
    return round(coverage, 2)


def _pieces(word: str) -> list[str]:
    """A word, or for a run of Chinese or Japanese characters (written without spaces, so one
    "word" may be a phrase: 修复计算面积的错误) its pairs of neighbouring characters."""
    if len(word) > 2 and all(unspaced(ch) for ch in word):
        return [word[i : i + 2] for i in range(len(word) - 1)]
    return [word]
