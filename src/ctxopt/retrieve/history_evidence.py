"""History as evidence: past commit messages that resemble the task point at the files those
commits modified (pure).

A commit message describes, in the words tasks use, what the code it changed is for.  Each
past commit is a document; BM25 scores the task against every message, and a file's evidence
is the sum of the scores of the most similar commits that modified it, each shared among the
files it modified (a sweeping commit says less about any one file), relative to the best file
and scaled by how much of the task the most similar message says.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ctxopt.retrieve.bm25 import idf, length_norm, term_score
from ctxopt.retrieve.window_terms import task_terms, terms_of
from ctxopt.types import PastCommit

SIMILAR_COMMITS = 10  # only the messages most like the task count: the rest is noise


@dataclass(frozen=True)
class PastMessage:
    """A past commit's message terms and the files it modified."""

    terms: Mapping[str, int]
    length: int
    files: tuple[str, ...]


@dataclass(frozen=True)
class MessageIndex:
    """The past messages of a repository with their document frequencies."""

    messages: tuple[PastMessage, ...]
    frequency: Mapping[str, int]
    average: float

    @classmethod
    def of(cls, messages: Sequence[PastMessage]) -> MessageIndex:
        frequency: Counter[str] = Counter()
        for message in messages:
            frequency.update(message.terms.keys())
        total = sum(m.length for m in messages)
        average = total / len(messages) if messages else 1.0
        return cls(tuple(messages), frequency, average)


def past_message(commit: PastCommit) -> PastMessage | None:
    """A commit's message as evidence; None when it modified no file or says nothing."""
    counts = Counter(terms_of(commit.message))
    if not commit.modified or not counts:
        return None
    return PastMessage(counts, sum(counts.values()), commit.modified)


@functools.lru_cache(maxsize=4)  # the index's commits, read once per reader
def message_index(commits: tuple[PastCommit, ...]) -> MessageIndex:
    """The evidence index of commits (newest first)."""
    return MessageIndex.of([m for c in commits if (m := past_message(c)) is not None])


def history_evidence(task: str, index: MessageIndex, indexed: Collection[str]) -> dict[str, float]:
    """file -> 0..1: how much the past commits most like the task modified each indexed file.

    Only commits that modified an indexed file count (a renamed or deleted file is no answer),
    and each shares its score among its indexed files.  The best file's evidence is the share
    of the task's words (by weight) that the message most like it holds: a past message that
    says what the task says gives 1.0, one that shares a common word or two gives little."""
    wanted = task_terms(task)
    if not wanted or not index.messages:
        return {}
    weights = _idf(wanted, index)
    scored = [
        (score, message)
        for message in index.messages
        if (score := _bm25(message, weights, index.average)) > 0
        and any(path in indexed for path in message.files)
    ]
    if not scored:
        return {}
    scored.sort(key=lambda pair: -pair[0])  # stable: the newer of equal messages first
    evidence: dict[str, float] = {}
    for score, message in scored[:SIMILAR_COMMITS]:
        files = [path for path in message.files if path in indexed]
        for path in files:
            evidence[path] = evidence.get(path, 0.0) + score / len(files)
    unseen = idf(len(index.messages), 0)  # a word no message holds
    said = sum(weights.get(term, unseen) for term in wanted)
    held = sum(weight for term, weight in weights.items() if term in scored[0][1].terms)
    scale = held / said / max(evidence.values())
    return {path: round(value * scale, 4) for path, value in evidence.items()}


def _idf(wanted: Collection[str], index: MessageIndex) -> dict[str, float]:
    """The inverse document frequency of each of the task's terms some message holds."""
    count = len(index.messages)
    return {term: idf(count, df) for term in wanted if (df := index.frequency.get(term, 0)) > 0}


def _bm25(message: PastMessage, weights: Mapping[str, float], average: float) -> float:
    norm = length_norm(message.length, average)
    return sum(
        term_score(tf, weight, norm)
        for term, weight in weights.items()
        if (tf := message.terms.get(term, 0))
    )
