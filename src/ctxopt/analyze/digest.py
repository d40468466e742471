"""The offline digest: representative, non-redundant sentences per window, no LLM.

Per window, sentences are scored by centrality (cosine to the window's centroid,
linear in the sentence count) and picked by maximal marginal relevance.  The
memory carried to the next window is chosen the same way from the previous memory
and the window's picks, within ``memory_chars``.  The final digest ranks the last
memory first, then every window's picks, and takes the longest prefix of that
ranking whose rendered text fits ``budget`` tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ctxopt import tokens
from ctxopt.analyze.layout import Layout
from ctxopt.analyze.sentences import MIN_SENTENCE_CHARS, Sentence, split_sentences
from ctxopt.embed.base import Embedder
from ctxopt.errors import BudgetError

MMR_LAMBDA = 0.7
DUPLICATE = 0.9  # a sentence this close to a chosen one is a repeat, never chosen
PICK_SHARE = 1.5  # a window picks this many times its share of the budget (in characters)


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
    found = [s for s in split_sentences(text) if len(s.text) >= MIN_SENTENCE_CHARS]
    sentences = tuple(found) or tuple(split_sentences(text))
    vectors = embedder.embed([s.text for s in sentences]).astype(np.float32)
    sizes = np.asarray([len(s.text) + 1 for s in sentences], dtype=np.int64)
    starts = np.asarray([s.start for s in sentences], dtype=np.int64)
    windows: list[DigestWindow] = []
    memory: list[int] = []
    for window in layout.windows:
        ids = np.arange(
            np.searchsorted(starts, window.new_start), np.searchsorted(starts, window.end)
        )
        share = budget * layout.chars_per_token * window.new_tokens / max(layout.tokens, 1)
        picks = [int(ids[i]) for i in _pick(vectors[ids], sizes[ids], int(share * PICK_SHARE))]
        pool = np.asarray(sorted(set(memory) | set(picks)), dtype=np.int64)
        memory = [int(pool[i]) for i in _pick(vectors[pool], sizes[pool], memory_chars)]
        windows.append(DigestWindow(window.index, tuple(picks), tuple(memory)))
        if progress:
            progress(window.index)
    ranked = _ranking(windows, memory, vectors)
    chosen, rendered, count = _fit(text, sentences, layout, ranked, set(memory), budget, title)
    key = tuple(i for i in chosen if i in set(memory))
    return Digest(sentences, tuple(windows), chosen, key, rendered, count)


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


def _fit(
    text: str,
    sentences: Sequence[Sentence],
    layout: Layout,
    ranked: list[int],
    key: set[int],
    budget: int,
    title: str,
) -> tuple[tuple[int, ...], str, int]:
    """The longest prefix of the ranking whose rendering fits the budget (binary search)."""

    def render(count: int) -> tuple[tuple[int, ...], str]:
        chosen = tuple(sorted(ranked[:count]))
        return chosen, render_digest(sentences, layout, chosen, key, title)

    low, high = 0, len(ranked)
    empty = tokens.count(render(0)[1])
    if empty > budget:
        raise BudgetError(f"--budget {budget} cannot hold the digest's headers ({empty} tokens)")
    while low < high:
        middle = (low + high + 1) // 2
        if tokens.count(render(middle)[1]) <= budget:
            low = middle
        else:
            high = middle - 1
    chosen, rendered = render(low)
    return chosen, rendered, tokens.count(rendered)


def render_digest(
    sentences: Sequence[Sentence],
    layout: Layout,
    chosen: Sequence[int],
    key: set[int],
    title: str,
) -> str:
    lines = [
        f"# Digest of {title}",
        "",
        f"{layout.chars:,} characters, {layout.tokens:,} tokens, read in "
        f"{len(layout.windows)} window(s); sentences quoted from the document in order.",
    ]
    points = [i for i in chosen if i in key]
    if points:
        lines += ["", "## Key points", ""] + [f"- {sentences[i].text}" for i in points]
    for window in layout.windows:
        own = [
            i
            for i in chosen
            if i not in key and window.new_start <= sentences[i].start < window.end
        ]
        if own:
            lines += [
                "",
                f"## Part {window.index} (characters {window.new_start:,}-{window.end:,})",
                "",
            ]
            lines += [f"- {sentences[i].text}" for i in own]
    return "\n".join(lines) + "\n"
