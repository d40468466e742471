"""A small BM25 (k1=1.2, b=0.75) with a code-aware tokeniser."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

K1 = 1.2
B = 0.75

_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_STOPWORD_TEXT = """a an and are as at be by for from has have in is it its of on or that the
this to was were will with not but if so we you i do does did can"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _parts(word: str) -> list[str]:
    pieces = [p for chunk in word.split("_") for p in _PART_RE.findall(chunk)]
    return [p.lower() for p in pieces]


def tokenize(text: str) -> list[str]:
    """Identifier-aware terms: camelCase/snake_case parts plus the whole identifier, lowercased.

    Terms of one character and English stop words are dropped.
    """
    terms: list[str] = []
    for word in _WORD_RE.findall(text):
        whole = word.lower()
        parts = _parts(word)
        if len(parts) > 1 or (parts and parts[0] != whole):
            terms.append(whole)
        terms.extend(parts)
    return [t for t in terms if len(t) > 1 and t not in STOPWORDS]


def idf(n_docs: int, df: int) -> float:
    """BM25 inverse document frequency (the always-positive Lucene form)."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def bm25_scores(query: Sequence[str], docs: Sequence[Counter[str]]) -> list[float]:
    """BM25 score of every document (a term-frequency Counter) for the query's distinct terms."""
    n_docs = len(docs)
    if n_docs == 0:
        return []
    lengths = [sum(doc.values()) for doc in docs]
    avgdl = (sum(lengths) / n_docs) or 1.0
    scores = [0.0] * n_docs
    for term in sorted(set(query)):
        hits = [(i, doc[term]) for i, doc in enumerate(docs) if term in doc]
        if not hits:
            continue
        weight = idf(n_docs, len(hits))
        for i, tf in hits:
            norm = K1 * (1.0 - B + B * lengths[i] / avgdl)
            scores[i] += weight * tf * (K1 + 1.0) / (tf + norm)
    return scores
