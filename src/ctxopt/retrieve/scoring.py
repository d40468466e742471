"""Fusion and multi-factor re-scoring of candidates (pure functions)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from ctxopt.embed.base import MINILM_NAME
from ctxopt.languages import TEXT, detect_language, named_in_task
from ctxopt.languages.naming import is_test_path, subject_stem
from ctxopt.retrieve.candidates import Candidate
from ctxopt.retrieve.secondary import SECONDARY_FACTORS, Secondary, secondary_class
from ctxopt.terms import split_identifier
from ctxopt.types import Chunk, Entities, Intent, IntentType, ScoredChunk

RRF_K = 60

# Defaults start from the design notes and were then tuned with scripts/bench_retrieval.py
# (README, "Retrieval quality"): on commit-history tasks the lexical, name and path
# signals carry the ranking; the vector signal, PageRank centrality and kind preferences
# did not raise file recall or changed-line coverage, so they start at zero or near it
# and stay available through [tool.ctxopt.weights].  Past commit messages (history) raised
# both on the development split but not on the test split, nor did fitting them in `tune`:
# zero, for a user to set.
DEFAULT_WEIGHTS: dict[str, float] = {
    "fused": 0.10,  # reciprocal-rank fusion of the full-text, vector and entity lists
    "lexical": 0.30,  # BM25 score relative to the best hit
    "window": 0.30,  # BM25 of the chunk's best line window in the top files
    "semantic": 0.0,  # cosine similarity with the task (0: the model is not even loaded)
    "symbol": 0.25,  # a name the task mentions
    "proximity": 0.20,  # a path or folder the task mentions
    "location": 0.25,  # a line the task points at ("src/a.rs:975", a traceback's frame)
    "dependency": 0.03,  # defined by / imported by / calling the top hits
    "recency": 0.10,  # recently committed files change again
    "centrality": 0.0,  # PageRank of the file in the import graph
    "type": 0.03,  # kinds that suit the intent
    "language": 0.02,  # languages the task mentions
    "history": 0.0,  # past commits whose messages are like the task modified the file
}
SOURCE_WEIGHTS = {"lexical": 1.0, "vector": 0.3, "entity": 1.0}
# A class outline (a split class's header, fields and member signatures) costs hundreds of
# tokens and shows no body, so its score counts this much.  Development split (560 cases,
# 2026-11-27): lines +0.004 / +0.001 / +0.000 at 4k / 8k / 16k, all functions +0.005 / +0.002 /
# 0 (0.8: +0.002 / +0.001 / +0.000); test split: recall at 4k +0.006, nothing lost.
OUTLINE_FACTOR = 0.6
RECENCY_HALF_LIFE = 90 * 86400
# A name or bare file name the index has more than VAGUE_COUNT of points at none of them: it
# matches each as a file of the same stem does, below what makes a chunk required.
VAGUE_COUNT = 3
VAGUE_MATCH = 0.7
# A file of the same stem as a path the task mentions, and a code file whose name is a
# compound identifier of the task (`route_block_args` and lib/roda/plugins/route_block_args.rb;
# `RouteBlockArgs` too), is about what the task names.  Not a test file by an identifier: one a
# task gives in passing (`credit_card`) lifted every chunk of zod's credit-card.test.ts.
STEM_NAMED = 0.7

_ERROR_HANDLING = re.compile(r"\b(raise|throw|except|catch|Err\(|panic|errors?\.|error)\b")

INTENT_KINDS: dict[IntentType, dict[str, float]] = {
    IntentType.BUG_FIX: {"function": 1.0, "method": 1.0, "class": 0.6},
    IntentType.DEBUG: {"function": 1.0, "method": 1.0, "class": 0.5},
    IntentType.FEATURE_ADD: {"function": 0.8, "method": 0.8, "class": 1.0, "interface": 1.0,
                             "type": 0.8, "config": 0.5},
    IntentType.EXPLAIN: {"class": 1.0, "interface": 1.0, "module": 0.8, "function": 0.7,
                         "method": 0.6, "doc": 0.8, "type": 0.8},
    IntentType.REFACTOR: {"function": 1.0, "method": 1.0, "class": 1.0},
    IntentType.TEST: {"test": 1.0, "function": 0.6, "method": 0.6, "class": 0.6},
    IntentType.REVIEW: {"function": 1.0, "method": 1.0, "class": 0.8, "test": 0.6},
}  # fmt: skip


@dataclass(frozen=True)
class ScoringContext:
    entities: Entities
    intent: Intent
    rank: Mapping[str, float]  # file -> PageRank (mean 1)
    newest_commit: int
    languages: frozenset[str]  # languages the task mentions
    # The classes of secondary chunks the task is about, which keep their score (search's
    # wanted_secondary: tests for a test task; docs and history when it names docs).
    wanted: frozenset[Secondary] = frozenset()
    history: Mapping[str, float] = field(default_factory=dict)  # file -> 0..1
    # Names and bare file names of the task that the index has many of (`main`, `main.rs`):
    # they point at none of them (see vague_mentions).
    vague: frozenset[str] = frozenset()
    # A path from another machine -> the one indexed file sharing its longest tail
    # (`site-packages/click/types.py` -> `src/click/types.py`; see tail_matches).
    tails: Mapping[str, str] = field(default_factory=dict)


# The vectors of the MiniLM transformer did raise recall and changed-line coverage on the
# benchmark (README, "Vectors"), those of the static model did not: an index built with
# --embedder minilm has its vectors count unless the user sets the weight.
EMBEDDER_SEMANTIC = {MINILM_NAME: 0.2}


def merge_weights(
    overrides: Iterable[tuple[str, float]] = (),
    *,
    embedder: str = "",
    tuned: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """The default weights for an index's embedder, the weights tuned on the repository's
    history over them, and the user's overrides on top of both."""
    weights = dict(DEFAULT_WEIGHTS)
    weights["semantic"] = EMBEDDER_SEMANTIC.get(embedder, weights["semantic"])
    weights.update({k: v for k, v in (tuned or {}).items() if k in DEFAULT_WEIGHTS})
    weights.update(dict(overrides))
    return weights


def rrf(candidate: Candidate) -> float:
    """Weighted reciprocal-rank fusion, scaled to 0..1."""
    total = 0.0
    if candidate.lexical_rank:
        total += SOURCE_WEIGHTS["lexical"] / (RRF_K + candidate.lexical_rank)
    if candidate.vector_rank:
        total += SOURCE_WEIGHTS["vector"] / (RRF_K + candidate.vector_rank)
    if candidate.entity_hits:
        total += SOURCE_WEIGHTS["entity"] / (RRF_K + 1)
    return min(1.0, total * (RRF_K + 1) / sum(SOURCE_WEIGHTS.values()))


def mentioned_languages(entities: Entities, task: str) -> frozenset[str]:
    """Languages of the files the task names, and those its words name ("rust", "c++")."""
    found = {detect_language(p) for p in entities.paths} - {TEXT.name}
    for word in re.findall(r"[A-Za-z#+]+", task.lower()):
        named = named_in_task(word)
        if named is not None:
            found.add(named.name)
    return frozenset(found)


def symbol_match(
    chunk: Chunk,
    entities: Entities,
    task_words: frozenset[str],
    names: frozenset[str] | None = None,
    vague: frozenset[str] = frozenset(),
) -> float:
    """names: the task's symbol names (given by a caller scoring many chunks); vague: those
    the index defines in many places, which name a candidate without pointing at it."""
    names = frozenset(entities.symbol_names) if names is None else names
    if chunk.qualified_name in names and chunk.qualified_name not in vague:
        return 1.0
    if chunk.name in names:
        return VAGUE_MATCH if chunk.name in vague else 1.0
    defined = names.intersection(chunk.defines)
    if defined:
        return VAGUE_MATCH if defined <= vague else 0.8
    parts = _name_parts(chunk.name)
    if len(parts) >= 2 and all(p in task_words for p in parts):
        return 0.5
    return 0.0


@functools.lru_cache(maxsize=65536)  # chunk names recur call after call
def _name_parts(name: str) -> tuple[str, ...]:
    return tuple(split_identifier(name))


def same_file(path: str, mention: str) -> bool:
    """The mention names this repository path (a longer, absolute mention too)."""
    return path == mention or path.endswith("/" + mention) or mention.endswith("/" + path)


def names_file(path: str, mention: str, tails: Mapping[str, str] | None = None) -> bool:
    """The mention names this repository path: one is a tail of the other, or (tails) they
    share the longest tail the mention shares with any indexed file, and no other file does."""
    return same_file(path, mention) or (tails is not None and tails.get(mention) == path)


def path_proximity(
    path: str,
    entities: Entities,
    vague: frozenset[str] = frozenset(),
    tails: Mapping[str, str] | None = None,
) -> float:
    """1.0 for a file the task names; vague: bare file names many indexed files have (a
    `main.rs` among fifteen), which make each of them only like a file of the same stem;
    tails: mentions from another machine and the indexed file each names (tail_matches)."""
    best = 0.0
    stem = subject_stem(path)
    for mention in entities.paths:
        if names_file(path, mention, tails):
            if mention not in vague:
                return 1.0
            best = max(best, VAGUE_MATCH)
        if path.startswith(mention.rstrip("/") + "/") or f"/{mention.rstrip('/')}/" in path:
            best = max(best, 0.6)
        elif PurePosixPath(mention).stem.lower() == stem:
            best = max(best, STEM_NAMED)
    if (
        len(stem) > 3
        and "".join(_name_parts(stem)) in _identifier_stems(entities.identifiers)
        and not is_test_path(path)
    ):
        best = max(best, STEM_NAMED)
    if best == 0.0 and len(stem) > 3 and stem in entities.words:
        best = 0.4
    return best


@functools.lru_cache(maxsize=256)  # the same task's identifiers, candidate after candidate
def _identifier_stems(identifiers: tuple[str, ...]) -> frozenset[str]:
    """The task's compound identifiers as a file's stem spells them, words run together."""
    return frozenset("".join(p) for p in map(_name_parts, identifiers) if len(p) >= 2)


def location_match(
    chunk: Chunk, entities: Entities, tails: Mapping[str, str] | None = None
) -> float:
    """1.0 when the task points at a line inside the chunk (tails: as for path_proximity)."""
    return float(
        any(
            chunk.start_line <= line <= chunk.end_line and names_file(chunk.path, mention, tails)
            for mention, line in entities.locations
        )
    )


@functools.lru_cache(maxsize=8192)  # a chunk is scored twice a query, and again next query
def _handles_errors(text: str) -> bool:
    return _ERROR_HANDLING.search(text) is not None


@dataclass(frozen=True)
class _TaskTerms:
    """What every candidate of a task is compared with, made once per scoring."""

    words: frozenset[str]
    names: frozenset[str]

    @classmethod
    def of(cls, entities: Entities) -> _TaskTerms:
        return cls(frozenset(entities.words), frozenset(entities.symbol_names))


def features(
    candidate: Candidate,
    ctx: ScoringContext,
    best_lexical: float,
    terms: _TaskTerms | None = None,
) -> dict[str, float]:
    chunk = candidate.chunk
    terms = terms or _TaskTerms.of(ctx.entities)
    age = max(0, ctx.newest_commit - chunk.commit_time) if chunk.commit_time else None
    rank = ctx.rank.get(chunk.path, 1.0)
    kind_pref = INTENT_KINDS.get(ctx.intent.type, {}).get(chunk.kind.value, 0.3)
    if ctx.intent.type in (IntentType.BUG_FIX, IntentType.DEBUG) and _handles_errors(chunk.text):
        kind_pref = min(1.0, kind_pref + 0.3)
    return {
        "fused": rrf(candidate),
        "lexical": candidate.lexical_score / best_lexical if best_lexical > 0 else 0.0,
        "window": candidate.window,
        "semantic": max(0.0, candidate.similarity),
        "symbol": symbol_match(chunk, ctx.entities, terms.words, terms.names, ctx.vague),
        "proximity": path_proximity(chunk.path, ctx.entities, ctx.vague, ctx.tails),
        "location": location_match(chunk, ctx.entities, ctx.tails),
        "dependency": min(1.0, 0.5 * len(candidate.graph_hits)),
        "recency": 0.0 if age is None else math.pow(0.5, age / RECENCY_HALF_LIFE),
        "centrality": min(1.0, math.log1p(rank) / math.log1p(8.0)),
        "type": kind_pref,
        "language": 1.0 if ctx.languages and chunk.language in ctx.languages else 0.0,
        "history": ctx.history.get(chunk.path, 0.0),
    }


Memo = dict[str, tuple[Hashable, ScoredChunk]]


def score_candidates(
    candidates: Sequence[Candidate],
    ctx: ScoringContext,
    weights: Mapping[str, float],
    memo: Memo | None = None,
) -> list[ScoredChunk]:
    """Score every candidate and sort by (score desc, path, start line).

    memo: the scores of an earlier pass with the same ctx and weights (filled here); a
    candidate whose signals have not changed since keeps its score without re-scoring.
    """
    best_lexical = max((c.lexical_score for c in candidates), default=0.0)
    terms = _TaskTerms.of(ctx.entities)
    scored: list[ScoredChunk] = []
    for candidate in candidates:
        signals = _signals(candidate, best_lexical) if memo is not None else None
        if memo is not None:
            earlier = memo.get(candidate.chunk.id)
            if earlier is not None and earlier[0] == signals:
                scored.append(earlier[1])
                continue
        raw = features(candidate, ctx, best_lexical, terms)
        contributions = {k: round(weights.get(k, 0.0) * v, 5) for k, v in raw.items()}
        score = sum(contributions.values())
        if candidate.chunk.summary:
            contributions["outline_penalty"] = round(-score * (1 - OUTLINE_FACTOR), 5)
            score *= OUTLINE_FACTOR
        secondary = secondary_class(candidate.chunk)
        if secondary is not None and secondary not in ctx.wanted:  # unless the task is about it
            factor = SECONDARY_FACTORS[secondary]
            contributions["secondary_penalty"] = round(-score * (1 - factor), 5)
            score *= factor
        hit = ScoredChunk(
            candidate.chunk,
            round(score, 5),
            contributions,
            reasons(candidate, raw),
            raw,
            candidate.window_lines,
        )
        scored.append(hit)
        if memo is not None:
            memo[candidate.chunk.id] = (signals, hit)
    scored.sort(key=lambda s: (-s.score, s.chunk.path, s.chunk.start_line))
    return scored


def penalty_factor(hit: ScoredChunk) -> float:
    """What score_candidates multiplied a hit's score by (its outline and secondary penalties):
    the one place that maps those penalties back to their factors."""
    factor = OUTLINE_FACTOR if "outline_penalty" in hit.factors else 1.0
    kind = secondary_class(hit.chunk) if "secondary_penalty" in hit.factors else None
    return factor * (SECONDARY_FACTORS[kind] if kind is not None else 1.0)


def _signals(candidate: Candidate, best_lexical: float) -> Hashable:
    """Everything of a candidate its score depends on besides its chunk, ctx and weights."""
    return (
        best_lexical,
        candidate.lexical_rank,
        candidate.lexical_score,
        candidate.vector_rank,
        candidate.similarity,
        frozenset(candidate.entity_hits),
        frozenset(candidate.graph_hits),
        candidate.window,
        candidate.window_lines,
    )


def reasons(candidate: Candidate, raw: Mapping[str, float]) -> tuple[str, ...]:
    """The evidence for a hit, for people; what the task points at first (a table shows the
    first three)."""
    out: list[str] = []
    if raw["location"] >= 1.0:
        out.append("holds a line the task points at")
    if candidate.lexical_rank:
        out.append(f"full-text #{candidate.lexical_rank}")
    if candidate.vector_rank:
        out.append(f"vector #{candidate.vector_rank} (cos {candidate.similarity:.2f})")
    out.extend(sorted(candidate.entity_hits))
    out.extend(sorted(candidate.graph_hits))
    if raw["window"] >= 0.5:
        out.append(f"its lines gather the task's words ({raw['window']:.2f})")
    if raw["symbol"] >= 0.8:
        out.append("names a symbol in the task")
    if raw["proximity"] >= 0.6:
        out.append("in a path the task mentions")
    if raw["history"] >= 0.5:
        out.append(f"past commits like the task changed its file ({raw['history']:.2f})")
    return tuple(out)
