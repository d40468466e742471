"""Okapi BM25's parts, shared by the rankings that score words against documents (pure): line
windows of files (`windows`) and past commit messages (`history_evidence`)."""

from __future__ import annotations

import math

K1 = 1.2  # how fast a term's repeats stop counting
B = 0.75  # how much a document's length discounts its terms


def idf(documents: int, holding: int) -> float:
    """The inverse document frequency of a term that `holding` of `documents` hold."""
    return math.log(1.0 + (documents - holding + 0.5) / (holding + 0.5))


def length_norm(length: float, average: float) -> float:
    """K1 scaled by a document's length against the average."""
    return K1 * (1.0 - B + B * length / average)


def term_score(tf: int, weight: float, norm: float) -> float:
    """A term's share of a document's score: its count tf, its idf weight, the document's
    length_norm."""
    return weight * tf * (K1 + 1.0) / (tf + norm)
