"""`search`: the whole retrieval path, from task text to ranked chunks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ctxopt.chunking import source_lines
from ctxopt.config.settings import Settings
from ctxopt.discover.walk import checked_globs, glob_spec
from ctxopt.index.store import IndexReader
from ctxopt.languages.naming import is_doc_path, is_test_path
from ctxopt.retrieve.candidates import Candidate, CandidateSource, prefilter_clause
from ctxopt.retrieve.companions import companion_tests
from ctxopt.retrieve.confidence import retrieval_confidence
from ctxopt.retrieve.entities import extract_entities, query_terms
from ctxopt.retrieve.filters import checked_kinds, checked_languages
from ctxopt.retrieve.history_evidence import history_evidence, message_index
from ctxopt.retrieve.intent import detect_intent
from ctxopt.retrieve.localise import localise_long_hits, shows_its_lines
from ctxopt.retrieve.path_tails import tail_matches
from ctxopt.retrieve.rerank import RERANK_TOP, rerank
from ctxopt.retrieve.scoring import (
    VAGUE_COUNT,
    Memo,
    ScoringContext,
    mentioned_languages,
    same_file,
    score_candidates,
)
from ctxopt.retrieve.secondary import TOOLING_TASK, Secondary, is_tooling_path
from ctxopt.retrieve.task_text import ranked_text
from ctxopt.retrieve.tuned import ranking_view
from ctxopt.retrieve.windows import (
    Window,
    WindowLookup,
    rank_windows,
    reach,
    window_file_limit,
)
from ctxopt.types import Chunk, Entities, Intent, IntentType, QueryResult, ScoredChunk

LEXICAL_POOL = 300
VECTOR_POOL = 100
EXPAND_TOP = 10
WINDOW_FILES = 20  # files whose line windows are scored: those of the best first-pass hits
COMPANION_SOURCES = 3  # the best source files whose test files are scored as well
WINDOW_KEEP = 0.3  # a chunk of those files joins the candidates from this window score on
DOC_WORDS = frozenset({"doc", "docs", "documentation", "readme", "changelog", "guide"})


@dataclass(frozen=True)
class QueryOptions:
    k: int = 10
    languages: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    no_tests: bool = False
    # the chunks holding a line the task points at (`tree.go:400:3`) come first, as a pack
    # puts them first; off for the pack's own candidate list, which stays in score order
    lines_first: bool = False

    def __post_init__(self) -> None:
        # checked when built, before any work: a typo in --lang or --kind is a usage error
        object.__setattr__(self, "languages", checked_languages(self.languages))
        object.__setattr__(self, "kinds", checked_kinds(self.kinds))
        object.__setattr__(self, "globs", checked_globs(self.globs))


Embed = Callable[[str], Sequence[float]]


def _add(pool: dict[str, Candidate], chunk: Chunk) -> Candidate:
    found = pool.get(chunk.id)
    if found is None:
        found = pool[chunk.id] = Candidate(chunk)
    return found


def gather(
    source: CandidateSource,
    task: str,
    entities: Entities,
    embed: Embed | None,
    indexed: Collection[str],
    named: Sequence[Chunk],
) -> dict[str, Candidate]:
    """Hop 1: full-text, vector and entity candidates (named: the chunks that define the
    task's symbol names)."""
    pool: dict[str, Candidate] = {}
    for rank, (chunk, score) in enumerate(source.full_text(query_terms(task), LEXICAL_POOL), 1):
        candidate = _add(pool, chunk)
        candidate.lexical_rank, candidate.lexical_score = rank, score
    if embed is not None:
        for rank, (chunk, sim) in enumerate(source.nearest(embed(task), VECTOR_POOL), 1):
            candidate = _add(pool, chunk)
            candidate.vector_rank, candidate.similarity = rank, sim
    for chunk in named:
        _add(pool, chunk).entity_hits.add(f"defines {chunk.name}")
    deepest = max((path.count("/") for path in indexed), default=0) + 1  # parts of the deepest path
    for mention in entities.paths:
        for chunk in _path_chunks(source, mention, indexed, deepest):
            _add(pool, chunk).entity_hits.add(f"path {mention}")
    return pool


def vague_mentions(
    entities: Entities, named: Sequence[Chunk], indexed: Collection[str]
) -> frozenset[str]:
    """The task's names defined in more than VAGUE_COUNT files, and its bare file names
    (no folder) more than VAGUE_COUNT indexed files have: `main` and `main.rs` in a
    workspace of binaries point at none of them."""
    files_defining: dict[str, set[str]] = {}
    for chunk in named:
        for name in {chunk.name, chunk.qualified_name}:
            files_defining.setdefault(name, set()).add(chunk.path)
    vague = {name for name, files in files_defining.items() if len(files) > VAGUE_COUNT}
    for mention in entities.paths:
        if "/" not in mention:
            having = sum(1 for path in indexed if same_file(path, mention))
            if having > VAGUE_COUNT:
                vague.add(mention)
    return frozenset(vague)


def _path_chunks(
    source: CandidateSource, mention: str, indexed: Collection[str], deepest: int
) -> list[Chunk]:
    """Chunks of the files a mention names; a prefix from another machine (an absolute
    path in a traceback) is dropped folder by folder, down to folder/file, until the rest
    is the tail of an indexed path (checked in memory: one query per mention); a mention
    that is no file's tail (a folder, a missing file) is looked up as written.  Only tails no
    deeper than the deepest indexed path (`deepest` parts) are tried (a pasted run of
    thousands of `./` is not tried thousands of times)."""
    parts = mention.split("/")
    for first in range(max(0, len(parts) - deepest), max(1, len(parts) - 1)):
        tail = "/".join(parts[first:])
        if any(path == tail or path.endswith("/" + tail) for path in indexed):
            return source.path_like(tail)
    return source.path_like(mention)


def expand(
    source: CandidateSource,
    pool: dict[str, Candidate],
    top: Sequence[ScoredChunk],
    intent: Intent,
    imports: dict[str, tuple[str, ...]],
) -> None:
    """Hop 2: definitions the top hits use, their import neighbours, and intent extras."""
    referenced = Counter[str]()
    for hit in top:
        referenced.update(hit.chunk.references)
    top_ids = {hit.chunk.id for hit in top}
    definitions = source.named(referenced)
    defined_count = Counter(c.name for c in definitions)
    for chunk in definitions:
        if chunk.id not in top_ids and defined_count[chunk.name] <= 3:
            _add(pool, chunk).graph_hits.add(f"defines {chunk.name}, used by a top hit")
    top_files = {hit.chunk.path for hit in top}
    neighbours = {n for path in top_files for n in imports.get(path, ())} - top_files
    for candidate in pool.values():
        if candidate.chunk.path in neighbours:
            candidate.graph_hits.add("imported by a top hit's file")
    names = sorted({hit.chunk.name for hit in top if hit.chunk.name})
    if intent.type == IntentType.TEST:
        for chunk in source.referencing(names, kinds=("test",)):
            _add(pool, chunk).graph_hits.add("tests a top hit")
    if intent.type == IntentType.REFACTOR:
        for chunk in source.referencing(names):
            if chunk.id not in top_ids:
                _add(pool, chunk).graph_hits.add("calls a top hit")


@dataclass(frozen=True)
class Ranking:
    """Every candidate of a task, best first (before --k and localising)."""

    ranked: list[ScoredChunk]
    candidates: int
    entities: Entities
    intent: Intent
    embedder: str
    weights: dict[str, float]
    ranking: str  # which weights are in force and why, for --explain
    text: str  # the task as the ranking read it (ranked_text)


def rank(
    settings: Settings,
    task: str,
    options: QueryOptions,
    *,
    reader: IndexReader,
    embed: Embed | None = None,
    weights: dict[str, float] | None = None,
) -> Ranking:
    """Gather, expand and score the candidates of a task (weights: those of the index)."""
    task = ranked_text(task)
    meta = reader.meta()
    note = "given by the caller"
    if weights is None:
        # defaults < tuned (stored with the index by `ctxopt tune`) < the user's settings
        view = ranking_view(settings, meta.embedder)
        weights, note = view.weights, view.line
    entities = extract_entities(task)
    intent = detect_intent(task, entities)
    if embed is None and weights.get("semantic", 0.0) > 0:
        # The model is loaded only when the vectors count; never torch (see task_encoder).
        embed = _task_embedder(meta.embedder, settings.model_cache)
    source = CandidateSource(
        reader, prefilter_clause(options.languages, options.kinds, options.no_tests)
    )
    files = reader.file_records()
    named = source.named(entities.symbol_names)
    pool = gather(source, task, entities, embed, files, named)
    graph = reader.graph()
    ctx = ScoringContext(
        entities=entities,
        intent=intent,
        rank=graph.rank,
        newest_commit=max((r.commit_time for r in files.values()), default=0),
        languages=mentioned_languages(entities, task),
        wanted=wanted_secondary(task, entities, intent),
        history=_history(task, reader, files) if weights.get("history", 0.0) > 0 else {},
        vague=vague_mentions(entities, named, files),
        tails=tail_matches(entities.paths, files),
    )
    memo: Memo = {}  # the second pass re-scores only candidates the hops changed
    first = score_candidates(list(pool.values()), ctx, weights, memo)
    expand(source, pool, first[:EXPAND_TOP], intent, graph.imports)
    if weights.get("window", 0.0) > 0:
        add_window_evidence(source, pool, first, task, settings.root, files)
    ranked = score_candidates(list(pool.values()), ctx, weights, memo)
    spec = glob_spec(options.globs, select=True)
    ranked = [s for s in ranked if spec is None or spec.match_file(s.chunk.path)]
    return Ranking(ranked, len(pool), entities, intent, meta.embedder, weights, note, task)


def search(
    settings: Settings,
    task: str,
    options: QueryOptions,
    *,
    reader: IndexReader | None = None,
    embed: Embed | None = None,
) -> QueryResult:
    """Rank the index's chunks for a task."""
    reader = reader or IndexReader(settings.db_path)
    found = rank(settings, task, options, reader=reader, embed=embed)
    ranked, ranking = found.ranked, found.ranking
    if settings.rerank:
        from ctxopt.embed.cross_encoder import shared_cross_encoder

        ranked = rerank(found.text, ranked, shared_cross_encoder().scores)
        ranking = f"{ranking}; the best {RERANK_TOP} reranked by a cross-encoder"
    ranked = _lines_first(ranked) if options.lines_first else ranked
    return QueryResult(
        task=task,
        intent=found.intent,
        entities=found.entities,
        results=localise_long_hits(ranked[: options.k], found.text, settings.root),
        candidates=found.candidates,
        embedder=found.embedder,
        confidence=retrieval_confidence(found.entities, found.ranked),
        ranking=ranking,
    )


def _lines_first(ranked: Sequence[ScoredChunk]) -> list[ScoredChunk]:
    """The hits holding a line the task points at, then the rest, each in score order."""
    return sorted(ranked, key=lambda hit: not hit.points_at_line)


def add_window_evidence(
    source: CandidateSource,
    pool: dict[str, Candidate],
    first: Sequence[ScoredChunk],
    task: str,
    root: Path,
    indexed: Iterable[str] = (),
) -> None:
    """Score line windows of the first pass's top files and of the tests of the best source
    files; every chunk of those files gets its best overlapping window's score, and the
    chunks with a good one join the candidates."""
    paths = list(dict.fromkeys(hit.chunk.path for hit in first))[:WINDOW_FILES]
    sources = [p for p in paths if not is_test_path(p)][:COMPANION_SOURCES]
    for tests in companion_tests(sources, indexed).values():
        paths.extend(t for t in tests[:1] if t not in paths)
    read = {path: source_lines(root / path, window_file_limit(path)) for path in paths}
    files = {path: lines for path, lines in read.items() if lines is not None}
    windows = rank_windows(task, files)
    if not windows:
        return
    best = windows[0].score
    lookup = WindowLookup(windows)
    for chunk in _window_reach(source, pool, files, windows):
        if not shows_its_lines(chunk):
            continue
        window = lookup.best(chunk.path, chunk.start_line, chunk.end_line)
        if window is None:
            continue
        score = round(window.score / best, 4)
        if chunk.id not in pool and score < WINDOW_KEEP:
            continue
        candidate = _add(pool, chunk)
        candidate.window = score
        candidate.window_lines = (
            max(chunk.start_line, window.start_line),
            min(chunk.end_line, window.end_line),
        )


def _window_reach(
    source: CandidateSource,
    pool: dict[str, Candidate],
    files: Collection[str],
    windows: Sequence[Window],
) -> list[Chunk]:
    """The chunks of the window files a window can give evidence to: the candidates there
    already, and the chunks that overlap a window good enough to join them.  Those are
    read from the index, not the files' every chunk (a 200 KB module has hundreds)."""
    best = windows[0].score
    strong = [w for w in windows if round(w.score / best, 4) >= WINDOW_KEEP]
    known = [c.chunk for c in pool.values() if c.chunk.path in files]
    found = [c for c in source.overlapping(reach(strong)) if c.id not in pool]
    return known + found


def wanted_secondary(task: str, entities: Entities, intent: Intent) -> frozenset[Secondary]:
    """The classes of secondary chunks a task is about, which keep their score: tests for a
    task about tests (its intent) or docs; docs and history only for a task that names docs
    (a test task lifting them gave `godoc-current.txt` a seventh of urfave/cli's 8k pack for
    "test: add shell-completion case ..."); tooling for a task that names a tool."""
    docs = _names_docs(entities)
    wanted: set[Secondary] = set()
    if docs or intent.type == IntentType.TEST:
        wanted.add(Secondary.TEST)
    if docs:
        wanted.update((Secondary.DOCS, Secondary.HISTORY))
    if _names_tooling(task, entities):
        wanted.add(Secondary.TOOLING)
    return frozenset(wanted)


def _names_docs(entities: Entities) -> bool:
    return bool(DOC_WORDS.intersection(entities.words)) or any(
        is_doc_path(p) for p in entities.paths
    )


def _names_tooling(task: str, entities: Entities) -> bool:
    return TOOLING_TASK.search(task) is not None or any(is_tooling_path(p) for p in entities.paths)


def _task_embedder(name: str, cache_dir: Path) -> Embed:
    from ctxopt.embed.factory import task_encoder

    encode = task_encoder(name, cache_dir)
    return lambda text: encode(text).tolist()


def _history(task: str, reader: IndexReader, indexed: Collection[str]) -> dict[str, float]:
    """file -> 0..1: how much the past commits most like the task modified each file."""
    return history_evidence(task, message_index(reader.past_commits()), indexed)
