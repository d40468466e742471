from ctxopt.retrieve.candidates import Candidate
from ctxopt.retrieve.entities import extract_entities
from ctxopt.retrieve.intent import detect_intent
from ctxopt.retrieve.scoring import (
    DEFAULT_WEIGHTS,
    OUTLINE_FACTOR,
    STEM_NAMED,
    Memo,
    ScoringContext,
    location_match,
    path_proximity,
    rrf,
    score_candidates,
)
from ctxopt.retrieve.secondary import Secondary
from ctxopt.types import Chunk, ChunkKind


def chunk(path: str, name: str, kind: ChunkKind = ChunkKind.FUNCTION, text: str = "x",
          lines: tuple[int, int] = (1, 3)) -> Chunk:  # fmt: skip
    return Chunk(
        id=f"{path}:{name}", path=path, language="python", kind=kind, name=name,
        qualified_name=name, signature=f"def {name}()", docstring="", start_line=lines[0],
        end_line=lines[1], text=text, tokens=10, content_hash=name,
    )  # fmt: skip


def context(task: str) -> ScoringContext:
    entities = extract_entities(task)
    return ScoringContext(
        entities=entities,
        intent=detect_intent(task, entities),
        rank={},
        newest_commit=0,
        languages=frozenset(),
    )


def test_rrf_rewards_agreement_and_is_bounded() -> None:
    both = Candidate(chunk("a.py", "a"), lexical_rank=1, vector_rank=1, entity_hits={"x"})
    one = Candidate(chunk("b.py", "b"), lexical_rank=1)
    assert 0 < rrf(one) < rrf(both) <= 1.0


def test_named_symbol_outranks_a_better_lexical_hit() -> None:
    ctx = context("fix save_inventory")
    named = Candidate(chunk("s.py", "save_inventory"), lexical_rank=5, lexical_score=2.0)
    other = Candidate(chunk("o.py", "other"), lexical_rank=1, lexical_score=6.0)
    ranked = score_candidates([other, named], ctx, DEFAULT_WEIGHTS)
    assert ranked[0].chunk.name == "save_inventory"
    assert ranked[0].named_by_task
    assert "symbol" in ranked[0].factors


def test_tests_rank_lower_unless_intent_is_test() -> None:
    code = Candidate(chunk("inv/store.py", "store"), lexical_rank=2, lexical_score=5.0)
    test = Candidate(
        chunk("tests/test_store.py", "test_store", ChunkKind.TEST),
        lexical_rank=1,
        lexical_score=5.0,
    )
    ranked = score_candidates([test, code], context("store is broken"), DEFAULT_WEIGHTS)
    assert ranked[0].chunk.kind == ChunkKind.FUNCTION
    assert ranked[1].factors["secondary_penalty"] < 0
    ctx = context("add tests for store")
    ctx = ScoringContext(**{**ctx.__dict__, "wanted": frozenset({Secondary.TEST})})
    ranked = score_candidates([code, test], ctx, DEFAULT_WEIGHTS)
    assert ranked[0].chunk.kind == ChunkKind.TEST


def test_a_class_outline_counts_less_than_the_same_code() -> None:
    whole = chunk("engine.py", "Engine", ChunkKind.CLASS)
    outline = Chunk(**{**whole.__dict__, "id": "outline", "summary": True})
    candidates = [
        Candidate(c, lexical_rank=1, lexical_score=5.0, window=0.8) for c in (whole, outline)
    ]
    ranked = score_candidates(candidates, context("engine drops jobs"), DEFAULT_WEIGHTS)
    assert [hit.chunk.id for hit in ranked] == [whole.id, "outline"]
    assert ranked[1].score == round(ranked[0].score * OUTLINE_FACTOR, 5)
    assert ranked[1].factors["outline_penalty"] < 0 and "outline_penalty" not in ranked[0].factors


def test_path_proximity_levels() -> None:
    entities = extract_entities("look at inventory/storage.py and the web/ folder")
    assert path_proximity("inventory/storage.py", entities) == 1.0
    assert path_proximity("web/src/client.ts", entities) == 0.6
    assert path_proximity("other/storage.py", entities) == 0.7
    assert path_proximity("x/y.py", entities) == 0.0


def test_a_file_named_as_a_compound_identifier_of_the_task_is_near_it() -> None:
    entities = extract_entities("Document that the route_block_args plugin will be removed")
    # a test file is lifted by the task's words only: an identifier a task gives in passing
    # (`credit_card`) named a whole test file (credit-card.test.ts)
    assert path_proximity("lib/roda/plugins/route_block_args.rb", entities) == STEM_NAMED
    assert path_proximity("spec/plugin/route_block_args_spec.rb", entities) == 0.0  # its test
    assert path_proximity("src/RouteBlockArgs.java", entities) == STEM_NAMED
    assert path_proximity("lib/roda/plugins/route_csrf.rb", entities) == 0.0
    assert path_proximity("lib/roda/plugins/route.rb", entities) == 0.4  # one word of three
    plain = extract_entities("the route plugin will be removed")
    assert path_proximity("lib/roda/plugins/route.rb", plain) == 0.4  # a word, not a name


def test_ties_break_by_path_then_line() -> None:
    a = Candidate(chunk("b.py", "f"))
    b = Candidate(chunk("a.py", "g"))
    ranked = score_candidates([a, b], context("zzz"), DEFAULT_WEIGHTS)
    assert [r.chunk.path for r in ranked] == ["a.py", "b.py"]


def test_a_line_the_task_points_at_marks_its_chunk_only() -> None:
    entities = extract_entities('File "/srv/app/src/pkg/core.py", line 42, in run')
    inside = chunk("src/pkg/core.py", "run", lines=(40, 50))
    before = chunk("src/pkg/core.py", "setup", lines=(1, 39))
    elsewhere = chunk("src/other/core.py", "run", lines=(40, 50))
    assert location_match(inside, entities) == 1.0
    assert location_match(before, entities) == 0.0
    assert location_match(elsewhere, entities) == 0.0
    assert path_proximity("src/pkg/core.py", entities) == 1.0
    ranked = score_candidates(
        [
            Candidate(before, lexical_rank=1, lexical_score=3.0),
            Candidate(inside, lexical_rank=2, lexical_score=3.0),
        ],
        ScoringContext(**{**context("x").__dict__, "entities": entities}),
        DEFAULT_WEIGHTS,
    )
    assert ranked[0].chunk.name == "run"
    assert ranked[0].points_at and not ranked[1].points_at
    assert ranked[1].named_by_task  # in the file the task names


def test_semantic_weight_defaults_by_embedder_and_the_user_setting_wins() -> None:
    from ctxopt.embed.base import MINILM_NAME, STATIC_NAME
    from ctxopt.retrieve.scoring import merge_weights

    assert merge_weights(embedder=STATIC_NAME)["semantic"] == 0.0
    assert merge_weights(embedder=MINILM_NAME)["semantic"] == 0.2
    assert merge_weights([("semantic", 0.0)], embedder=MINILM_NAME)["semantic"] == 0.0
    assert merge_weights([("semantic", 0.3)], embedder=STATIC_NAME)["semantic"] == 0.3
    assert merge_weights(embedder=MINILM_NAME)["lexical"] == merge_weights()["lexical"]


def test_a_second_pass_with_the_memo_rescores_only_changed_candidates() -> None:
    ctx = context("fix save_inventory when the file is missing")
    pool = [
        Candidate(chunk(f"m{i}.py", f"f{i}"), lexical_rank=i + 1, lexical_score=9.0 - i)
        for i in range(6)
    ]
    memo: Memo = {}
    first = {h.chunk.id: h for h in score_candidates(pool, ctx, DEFAULT_WEIGHTS, memo)}
    pool[2].window, pool[2].window_lines = 0.9, (1, 2)
    pool[4].graph_hits.add("defines f4, used by a top hit")
    pool.append(Candidate(chunk("new.py", "save_inventory"), entity_hits={"defines x"}))
    again = score_candidates(pool, ctx, DEFAULT_WEIGHTS, memo)
    fresh = score_candidates(pool, ctx, DEFAULT_WEIGHTS)
    assert again == fresh
    kept = {h.chunk.id for h in again if first.get(h.chunk.id) is h}
    assert kept == {"m0.py:f0", "m1.py:f1", "m3.py:f3", "m5.py:f5"}
