"""The offline digest: representative, non-redundant sentences per window, no LLM.

Per window, sentences are scored by centrality (cosine to the window's centroid,
linear in the sentence count) and picked by maximal marginal relevance.  The
memory carried to the next window is chosen the same way from the previous memory
and the window's picks, within ``memory_chars``.  The final digest ranks the last
memory first, then every window's picks; ``digest_fit`` takes what of that ranking fits
``budget`` tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ctxopt.analyze.digest_fit import Cut, Page, fit
from ctxopt.analyze.layout import Layout
from ctxopt.analyze.sentences import MIN_SENTENCE_CHARS, Sentence, split_sentences
from ctxopt.embed.base import Embedder

MMR_LAMBDA = 0.7
DUPLICATE = 0.9  # a sentence this close to a chosen one is a repeat, never chosen
PICK_SHARE = 1.5  # a window picks this many times its share of the budget (in characters)
# budgets up to this pick as if they were this large: every small budget ranks the same
# sentences, so a larger one holds at least as much, and the budget BudgetError names works
PICK_FLOOR = 8000


@dataclass(frozen=True)
class DigestWindow:
    index: int
    picks: tuple[int, ...]  # sentence ids, in the order MMR chose them
    memory: tuple[int, ...]  # sentence ids carried to the next window


@dataclass(frozen=True)
class Digest:
    sentences: tuple[Sentence, ...]
    windows: tuple[DigestWindow, ...]
    chosen: tuple[int, ...]  # sentence ids in the digest, in document order
    key_points: tuple[int, ...]  # the chosen ids that come from the last memory
    text: str  # the rendered digest
    tokens: int
    cut: Cut | None = None  # the next sentence's start, cut to fit the room left


def mmr(vectors: np.ndarray, relevance: np.ndarray, sizes: np.ndarray, limit: int) -> list[int]:
    """Row indices by maximal marginal relevance until their sizes reach limit.

    Each step costs one pass over the rows, and only rows that still fit stay in the
    race, so the work is (rows x chosen), linear in the document for a fixed budget."""
    chosen: list[int] = []
    closest = np.full(len(relevance), -1.0, dtype=np.float32)
    available = sizes <= limit
    used = 0
    while available.any():
        score = MMR_LAMBDA * relevance - (1 - MMR_LAMBDA) * np.maximum(closest, 0)
        score[~available] = -np.inf
        best = int(np.argmax(score))
        chosen.append(best)
        used += int(sizes[best])
        closest = np.maximum(closest, vectors @ vectors[best])
        available &= (sizes <= limit - used) & (closest < DUPLICATE)
        available[best] = False
    return chosen


def _centrality(vectors: np.ndarray) -> np.ndarray:
    centroid = vectors.mean(axis=0)
    norm = float(np.linalg.norm(centroid))
    return vectors @ (centroid / norm) if norm > 0 else np.zeros(len(vectors), dtype=np.float32)


def digest(
    text: str,
    layout: Layout,
    embedder: Embedder,
    *,
    budget: int,
    memory_chars: int,
    title: str,
    progress: Callable[[int], None] | None = None,
) -> Digest:
    sentences = _quotable(split_sentences(text))
    vectors = embedder.embed([s.text for s in sentences]).astype(np.float32)
    sizes = np.asarray([len(s.text) + 1 for s in sentences], dtype=np.int64)
    starts = np.asarray([s.start for s in sentences], dtype=np.int64)
    windows: list[DigestWindow] = []
    memory: list[int] = []
    for window in layout.windows:
        ids = np.arange(
            np.searchsorted(starts, window.new_start), np.searchsorted(starts, window.end)
        )
        picked = max(budget, PICK_FLOOR)
        share = picked * layout.chars_per_token * window.new_tokens / max(layout.tokens, 1)
        picks = [int(ids[i]) for i in _pick(vectors[ids], sizes[ids], int(share * PICK_SHARE))]
        pool = np.asarray(sorted(set(memory) | set(picks)), dtype=np.int64)
        memory = [int(pool[i]) for i in _pick(vectors[pool], sizes[pool], memory_chars)]
        windows.append(DigestWindow(window.index, tuple(picks), tuple(memory)))
        if progress:
            progress(window.index)
    ranked = _ranking(windows, memory, vectors)
    page = Page(sentences, layout, frozenset(memory), title)
    fitted = fit(page, ranked, budget)
    key = tuple(i for i in fitted.chosen if i in page.key)
    return Digest(
        sentences, tuple(windows), fitted.chosen, key, fitted.text, fitted.tokens, fitted.cut
    )


def _quotable(found: list[Sentence]) -> tuple[Sentence, ...]:
    """The sentences a digest may quote: not headings nor code, not shorter than
    MIN_SENTENCE_CHARS; a document without such takes its short sentences, then its headings
    and code."""
    text = [s for s in found if not s.heading and not s.code]
    return tuple(s for s in text if len(s.text) >= MIN_SENTENCE_CHARS) or tuple(text or found)


def _pick(vectors: np.ndarray, sizes: np.ndarray, limit: int) -> list[int]:
    if len(vectors) == 0:
        return []
    return mmr(vectors, _centrality(vectors), sizes, max(limit, int(sizes.min())))


def _ranking(
    windows: Sequence[DigestWindow], memory: Sequence[int], vectors: np.ndarray
) -> list[int]:
    """The last memory first, then the windows' picks round-robin by their MMR order;
    a sentence that repeats one already ranked (another window's copy) is left out."""
    order = list(memory)
    depth = max((len(w.picks) for w in windows), default=0)
    for level in range(depth):
        order += [w.picks[level] for w in windows if level < len(w.picks)]
    ranked: list[int] = []
    kept = np.zeros((len(order), vectors.shape[1]), dtype=np.float32)
    for sentence in dict.fromkeys(order):
        if ranked and float((kept[: len(ranked)] @ vectors[sentence]).max()) >= DUPLICATE:
            continue
        kept[len(ranked)] = vectors[sentence]
        ranked.append(sentence)
    return ranked
