from dataclasses import replace

from ctxopt.pack.duplicates import copies_accounted, copy_holders, near_duplicates
from ctxopt.pack.key_lines import KEY_LINES, key_terms
from ctxopt.pack.select import (
    FILE_HEADER,
    MIN_KEY_LINES,
    NAMED_FLOOR,
    Selection,
    SelectOptions,
    select,
)
from ctxopt.types import (
    Chunk,
    ChunkKind,
    Dropped,
    DropReason,
    Fidelity,
    PickReason,
    ScoredChunk,
    StepReason,
)


def hit(path: str, name: str, score: float, tokens: int, *, text: str | None = None,
        named: bool = False, kind: ChunkKind = ChunkKind.FUNCTION,
        refs: tuple[str, ...] = (), in_named_file: bool = False) -> ScoredChunk:  # fmt: skip
    body = (
        text
        if text is not None
        else f"def {name}():\n" + "\n".join(f"    step_{name}_{i}()" for i in range(3))
    )
    chunk = Chunk(
        id=f"{path}:{name}", path=path, language="python", kind=kind, name=name,
        qualified_name=name, signature=f"def {name}():", docstring="", start_line=1,
        end_line=4, text=body, tokens=tokens, content_hash=f"{path}:{name}:{body}",
        references=refs,
    )  # fmt: skip
    features = {"symbol": 1.0 if named else 0.0, "proximity": 1.0 if in_named_file else 0.0}
    return ScoredChunk(chunk, score, {}, (), features)


def fake_render(
    chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None
) -> tuple[str, int]:
    costs = {
        Fidelity.FULL: chunk.tokens,
        Fidelity.SIGNATURE: 20,
        Fidelity.STUB: 8,
        Fidelity.PATH: 4,
    }
    return fidelity.value, costs[fidelity]


def test_never_exceeds_budget_and_steps_down_before_dropping() -> None:
    hits = [hit("a.py", "big", 0.9, 500), hit("b.py", "small", 0.5, 50)]
    chosen = select(hits, SelectOptions(budget=120), fake_render)
    assert chosen.spent <= 120
    by_name = {c.hit.chunk.name: c.fidelity for c in chosen.chosen}
    assert by_name["small"] == Fidelity.FULL
    assert by_name["big"] == Fidelity.SIGNATURE


def test_named_chunks_come_first_when_they_score_near_the_best() -> None:
    hits = [hit(f"f{i}.py", f"f{i}", 0.9, 100) for i in range(5)]
    hits.append(hit("named.py", "wanted", NAMED_FLOOR * 0.9 + 0.01, 100, named=True))
    chosen = select(hits, SelectOptions(budget=250), fake_render)
    assert chosen.chosen[0].hit.chunk.name == "wanted"
    assert chosen.chosen[0].why is PickReason.NAMED
    assert chosen.chosen[0].why.text == "named by the task"


def test_a_named_chunk_far_below_the_best_competes_on_its_score() -> None:
    """A test named after a word of the task's code (`undefined`, `catch`) must not go in
    before the code that scores far higher."""
    hits = [hit(f"f{i}.py", f"f{i}", 0.9, 100) for i in range(5)]
    hits.append(hit("named.py", "wanted", NAMED_FLOOR * 0.9 - 0.01, 100, named=True))
    chosen = select(hits, SelectOptions(budget=250), fake_render)
    assert chosen.chosen[0].hit.chunk.name == "f0"
    assert PickReason.NAMED not in {c.why for c in chosen.chosen}
    full = [c.hit.chunk.name for c in chosen.chosen if c.fidelity is Fidelity.FULL]
    assert "wanted" not in full


def test_a_chunk_holding_a_line_the_task_names_comes_first_at_any_score() -> None:
    hits = [hit(f"f{i}.py", f"f{i}", 0.9, 100) for i in range(5)]
    low = hit("trace.py", "raiser", 0.1, 100)
    hits.append(replace(low, features={**low.features, "location": 1.0}))
    chosen = select(hits, SelectOptions(budget=250), fake_render)
    assert chosen.chosen[0].hit.chunk.name == "raiser"
    assert chosen.chosen[0].why is PickReason.NAMED


def test_a_named_file_fills_at_most_half_the_budget_before_the_rest_competes() -> None:
    named_file = [hit("big.rs", f"part{i}", 0.3 - i * 0.01, 100, in_named_file=True)
                  for i in range(20)]  # fmt: skip
    strong = hit("lib.rs", "attributes", 0.6, 150)
    chosen = select([*named_file, strong], SelectOptions(budget=1000), fake_render)
    why = [c.why for c in chosen.chosen]
    assert "attributes" in {c.hit.chunk.name for c in chosen.chosen}
    first_pass = [c for c in chosen.chosen if c.why is PickReason.NAMED_FILE]
    assert 0 < sum(c.tokens for c in first_pass) <= 500
    assert [c.hit.chunk.name for c in first_pass] == [f"part{i}" for i in range(len(first_pass))]
    assert why.index(PickReason.NAMED_FILE) < min(
        i for i, w in enumerate(why) if w in (PickReason.LEAD, PickReason.SCORE)
    )
    assert chosen.spent <= 1000


def test_cap_per_file_unless_named() -> None:
    crowd = [hit("a.py", f"f{i}", 0.9 - i * 0.01, 12) for i in range(6)]
    others = [hit("b.py", f"g{i}", 0.5, 12) for i in range(3)]
    budget = 6 * 12 + 2 * 24  # six entries and two file headers
    chosen = select([*crowd, *others], SelectOptions(budget=budget), fake_render)
    names = [c.hit.chunk.name for c in chosen.chosen]
    assert sorted(names) == ["f0", "f1", "f2", "g0", "g1", "g2"]
    capped = [d for d in chosen.dropped if d.reason is DropReason.PER_FILE_CAP]
    assert capped and all(d.limit == 3 for d in capped)
    assert capped[0].text == "already 3 chunks from its file"
    named = select(
        [*crowd, *others],
        SelectOptions(budget=budget, named_files=frozenset({"a.py"})),
        fake_render,
    )
    assert sum(c.hit.chunk.path == "a.py" for c in named.chosen) > 3
    assert not any(d.reason is DropReason.PER_FILE_CAP for d in named.dropped)


def test_room_left_never_takes_a_weaker_chunk_of_a_file_whose_better_one_waits() -> None:
    best = [hit("a.py", f"f{i}", 0.9 - i * 0.01, 10) for i in range(3)]
    wanted = hit("a.py", "wanted", 0.55, 60)  # capped, then too big for the room left
    weaker = [hit("a.py", f"weak{i}", 0.4, 10) for i in range(2)]
    others = [hit("b.py", f"g{i}", 0.7, 30) for i in range(4)]
    options = SelectOptions(budget=190, max_chunks_per_file=3, path_entries=False)
    chosen = select([*best, wanted, *weaker, *others], options, fake_render)
    names = {c.hit.chunk.name for c in chosen.chosen}
    assert {"f0", "f1", "f2"} <= names and "wanted" not in names
    assert chosen.spent + 10 <= 190  # a weaker chunk of a.py would have fitted ...
    assert not names & {"weak0", "weak1"}  # ... but its file's better chunk waits
    roomy = select([*best, wanted, *weaker, *others], replace(options, budget=400), fake_render)
    leftover = [c.hit.chunk.name for c in roomy.chosen if c.why is PickReason.LEFTOVER]
    assert leftover.index("wanted") < leftover.index("weak0") < leftover.index("weak1")


def test_room_left_after_the_cap_goes_to_capped_files() -> None:
    crowd = [hit("a.py", f"f{i}", 0.9 - i * 0.01, 10) for i in range(6)]
    chosen = select(crowd, SelectOptions(budget=10_000), fake_render)
    assert len(chosen.chosen) == 6
    assert [c.why for c in chosen.chosen][3:] == [PickReason.LEFTOVER] * 3
    assert not any(d.reason is DropReason.PER_FILE_CAP for d in chosen.dropped)


def test_near_duplicates_keep_the_higher_scored() -> None:
    body = "\n".join(f"line_{i} = {i}" for i in range(20))
    first = hit("a.py", "one", 0.9, 50, text=body)
    copy = hit("b.py", "two", 0.5, 50, text=body + "\n")
    other = hit("c.py", "three", 0.4, 50)
    assert near_duplicates([first, copy, other]) == {"b.py:two": "a.py:one"}
    chosen = select([first, copy, other], SelectOptions(budget=1000), fake_render)
    assert {c.hit.chunk.name for c in chosen.chosen} == {"one", "three"}


def test_types_used_by_picked_code_are_added() -> None:
    user = hit("a.py", "use_item", 0.9, 50, named=True, refs=("Item",))
    item = hit("m.py", "Item", 0.05, 300, kind=ChunkKind.CLASS)
    filler = [hit(f"z{i}.py", f"z{i}", 0.5, 100) for i in range(3)]
    chosen = select([user, *filler, item], SelectOptions(budget=200), fake_render)
    names = [c.hit.chunk.name for c in chosen.chosen]
    assert names[:2] == ["use_item", "Item"]
    assert chosen.chosen[1].fidelity == Fidelity.SIGNATURE


def test_used_types_come_once_per_name_and_never_as_an_impl_block() -> None:
    caller = hit("a.rs", "run", 0.9, 40, refs=("Value",))
    impl = hit("b.rs", "Value", 0.8, 60, kind=ChunkKind.CLASS, text="impl Value {\n}")
    impl = ScoredChunk(replace(impl.chunk, id="b.rs:impl", signature="impl Value"), 0.8, {}, (), {})
    first = hit("c.rs", "Value", 0.5, 300, kind=ChunkKind.CLASS, text="pub enum Value {\n}")
    second = hit("d.rs", "Value", 0.4, 300, kind=ChunkKind.CLASS, text="pub struct Value;")
    chosen = select([caller, impl, first, second], SelectOptions(budget=400), fake_render)
    typed = [c.hit.chunk.path for c in chosen.chosen if c.why is PickReason.USED_TYPE]
    assert typed == ["c.rs"]  # too big to show whole in what is left: it stays a signature


def test_a_used_type_in_as_its_signature_is_shown_whole_at_its_own_scores_turn() -> None:
    user = hit("a.py", "use_item", 0.9, 50, refs=("Item",))
    item = hit("m.py", "Item", 0.5, 60, kind=ChunkKind.CLASS)
    weaker = [hit(f"z{i}.py", f"z{i}", 0.2, 60) for i in range(3)]
    chosen = select([user, item, *weaker], SelectOptions(budget=1000), fake_render)
    items = [c for c in chosen.chosen if c.hit.chunk.name == "Item"]
    assert [(c.fidelity, c.why) for c in items] == [(Fidelity.FULL, PickReason.SCORE)]
    assert chosen.spent <= 1000


def test_the_test_file_of_the_best_source_file_gets_its_best_chunk() -> None:
    hits = [
        hit("src/termui.py", "echo_via_pager", 0.9, 100),
        *(hit(f"src/other{i}.py", f"helper{i}", 0.6, 40) for i in range(10)),
        hit("tests/test_termui.py", "test_pager_falls_back", 0.2, 60),
        hit("tests/test_termui.py", "test_unrelated", 0.1, 60),
    ]
    chosen = select(hits, SelectOptions(budget=700), fake_render)
    why = {c.hit.chunk.name: c.why for c in chosen.chosen}
    assert why.get("test_pager_falls_back") is PickReason.COMPANION_TEST
    assert "test_unrelated" not in why
    assert chosen.spent <= 700


def test_a_larger_budget_takes_more_best_hits_whole_before_the_per_token_order() -> None:
    best = [hit(f"top{i}.py", f"top{i}", 1.0 - i * 0.01, 100) for i in range(8)]
    big = hit("big.py", "big", 0.9, 1500)  # ninth best, costly per token
    crowd = [hit(f"c{i}.py", f"c{i}", 0.85, 100) for i in range(150)]
    hits = [*best, big, *crowd]
    large = select(hits, SelectOptions(budget=16_000), fake_render)
    assert "big" in {c.hit.chunk.name for c in large.chosen}
    small = select(hits, SelectOptions(budget=4_000), fake_render)
    assert "big" not in {c.hit.chunk.name for c in small.chosen if c.fidelity == Fidelity.FULL}


def test_a_mandatory_hit_goes_in_first_as_changed_whatever_its_features() -> None:
    hits = [hit(f"f{i}.py", f"f{i}", 0.9, 100) for i in range(5)]
    changed = replace(hit("diff.py", "touched", 0.1, 100), mandatory=True)
    assert changed.features["symbol"] == 0.0 and not changed.points_at
    chosen = select([*hits, changed], SelectOptions(budget=250), fake_render)
    assert chosen.chosen[0].hit.chunk.name == "touched"
    assert chosen.chosen[0].why is PickReason.CHANGED
    assert chosen.chosen[0].why.text == "touched by the change"
    assert [c.hit.chunk.name for c in chosen.chosen].count("touched") == 1


def test_each_entry_below_full_says_why_it_was_stepped_down() -> None:
    small = select(
        [hit("a.py", "a", 0.9, 50)],
        SelectOptions(budget=200, start_fidelity=Fidelity.SIGNATURE),
        fake_render,
    )
    assert [(c.fidelity, c.stepped) for c in small.chosen] == [
        (Fidelity.SIGNATURE, StepReason.SMALL_BUDGET)
    ]
    user = hit("a.py", "use_item", 0.9, 50, named=True, refs=("Item",))
    item = hit("m.py", "Item", 0.05, 300, kind=ChunkKind.CLASS)
    big = hit("b.py", "big", 0.5, 500)
    chosen = select([user, item, big], SelectOptions(budget=200), fake_render)
    stepped = {c.hit.chunk.name: (c.fidelity, c.stepped) for c in chosen.chosen}
    assert stepped["use_item"] == (Fidelity.FULL, None)
    assert stepped["Item"] == (Fidelity.SIGNATURE, StepReason.TYPE_SIGNATURE)
    assert stepped["big"] == (Fidelity.SIGNATURE, StepReason.NO_ROOM)


def test_drops_carry_their_reason_and_numbers() -> None:
    body = "\n".join(f"line_{i} = {i}" for i in range(20))
    first = hit("a.py", "one", 0.9, 50, text=body)
    copy = hit("b.py", "two", 0.5, 50, text=body + "\n")
    crowd = [hit("c.py", f"c{i}", 0.4 - i * 0.01, 30) for i in range(4)]
    chosen = select([first, copy, *crowd], SelectOptions(budget=170, max_chunks_per_file=2),
                    fake_render)  # fmt: skip
    reasons = {d.hit.chunk.name: (d.reason, d.limit, d.text) for d in chosen.dropped}
    assert reasons["two"] == (
        DropReason.NEAR_DUPLICATE, 0, "near-duplicate of a chunk kept instead"
    )  # fmt: skip
    assert {reasons[n] for n in ("c2", "c3")} == {
        (DropReason.PER_FILE_CAP, 2, "already 2 chunks from its file")
    }


def _capped_file(displace: bool, cap: int = 2) -> list[str]:
    """a.py: three cheap chunks and one dear, better-scored one; the budget holds the dear
    one and a single cheap one (and its header) but not a second cheap one beside them."""
    small = [hit("a.py", f"s{i}", 0.5 - 0.05 * i, 20) for i in range(3)]
    big = hit("a.py", "big", 0.6, 400)
    budget = 20 + 24 + 400 + 10
    options = SelectOptions(budget=budget, max_chunks_per_file=cap, displace=displace)
    selection = select([big, *small], options, fake_render)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    return sorted(c.hit.chunk.name for c in selection.chosen)


def test_a_better_chunk_of_a_capped_file_takes_the_place_of_its_weakest() -> None:
    # cheap ones first, big lost, and the room left is not given to s2 while big waits
    assert _capped_file(displace=False) == ["s0", "s1"]
    assert _capped_file(displace=True) == ["big", "s0"]
    assert _capped_file(displace=True, cap=1) == ["big", "s0"]  # s0 back as leftover


def test_a_displaced_chunk_is_dropped_for_the_cap_and_a_swap_that_cannot_fit_is_undone() -> None:
    small = [hit("a.py", f"s{i}", 0.5 - 0.05 * i, 20) for i in range(3)]
    big = hit("a.py", "big", 0.6, 400)
    fits = select(
        [big, *small], SelectOptions(budget=454, max_chunks_per_file=2, displace=True), fake_render
    )
    reasons = {d.hit.chunk.name: d.reason for d in fits.dropped}
    assert reasons["s1"] is DropReason.DISPLACED
    tight = select(
        [big, *small], SelectOptions(budget=300, max_chunks_per_file=2, displace=True), fake_render
    )
    assert {c.hit.chunk.name: c.fidelity for c in tight.chosen} == {
        "s0": Fidelity.FULL,
        "s1": Fidelity.FULL,
        "s2": Fidelity.FULL,
        "big": Fidelity.SIGNATURE,
    }  # the big one cannot replace a full entry in full; it is not left out while weaker chunks
    # of its file are packed (issue 18; until 2026-12-02 it was), so it goes in as its signature
    # in s1's place, and the room left after the cap then lets s1 and s2 in again
    big_entry = next(c for c in tight.chosen if c.hit.chunk.name == "big")
    assert big_entry.stepped is StepReason.NO_ROOM
    assert tight.spent == sum(c.tokens for c in tight.chosen) <= 300
    assert tight.dropped == ()


def test_without_path_entries_no_entry_spends_tokens_without_showing_code() -> None:
    # room for one full entry and a little more: the rest go in as bare paths, or not at all
    hits = [hit(f"f{i}.py", f"f{i}", 0.9 - i * 0.01, 100) for i in range(6)]
    budget = 100 + 24 + 16
    paths = select(hits, SelectOptions(budget=budget), fake_render)
    fidelities = [c.fidelity for c in paths.chosen]
    assert (
        fidelities[0] is Fidelity.FULL and fidelities[1:] and set(fidelities[1:]) == {Fidelity.PATH}
    )
    strict = select(hits, SelectOptions(budget=budget, path_entries=False), fake_render)
    assert [c.hit.chunk.name for c in strict.chosen] == ["f0"]
    assert all(c.fidelity is not Fidelity.PATH and c.content for c in strict.chosen)
    assert {d.reason for d in strict.dropped} <= {DropReason.NO_ROOM, DropReason.BUDGET_FULL}
    no_room = Dropped(hits[1], DropReason.NO_ROOM)
    assert no_room.text == "no room left even for its shortest form"


def test_a_capped_file_gives_up_as_many_weaker_entries_as_its_better_chunk_needs() -> None:
    # three cheap entries fill a.py's cap; the better chunk needs the room of two of them
    small = [hit("a.py", f"s{i}", 0.58 - 0.01 * i, 20) for i in range(3)]
    better = hit("a.py", "better", 0.6, 65)
    budget = FILE_HEADER + 3 * 20 + 30
    options = SelectOptions(budget=budget, max_chunks_per_file=3, displace=True)
    selection = select([better, *small], options, fake_render)
    assert sorted(c.hit.chunk.name for c in selection.chosen) == ["better", "s0"]
    reasons = {d.hit.chunk.name: d.reason for d in selection.dropped}
    assert reasons == {"s1": DropReason.DISPLACED, "s2": DropReason.DISPLACED}
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    kept = select([better, *small], replace(options, displace=False), fake_render)
    assert sorted(c.hit.chunk.name for c in kept.chosen) == ["s0", "s1", "s2"]


def test_a_better_chunk_too_big_for_what_weaker_ones_free_goes_in_as_its_signature() -> None:
    small = [hit("a.py", f"s{i}", 0.58 - 0.01 * i, 20) for i in range(3)]
    better = hit("a.py", "better", 0.6, 500)  # more than all three free, and no excerpt
    budget = FILE_HEADER + 3 * 20 + 30
    options = SelectOptions(budget=budget, max_chunks_per_file=3, displace=True)
    selection = select([better, *small], options, fake_render)
    shown = {c.hit.chunk.name: c.fidelity for c in selection.chosen}
    assert shown == {"better": Fidelity.SIGNATURE, **{f"s{i}": Fidelity.FULL for i in range(3)}}
    assert selection.dropped == ()  # until 2026-12-02 better was left out by the cap
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    strict = select([better, *small], replace(options, strict_cap=True), fake_render)
    assert sorted(c.hit.chunk.name for c in strict.chosen) == ["better", "s0", "s1"]
    assert {d.hit.chunk.name: d.reason for d in strict.dropped} == {"s2": DropReason.DISPLACED}


def _file_of_one_liners(
    big_tokens: int, displace: bool = True
) -> tuple[list[str], dict[str, DropReason]]:
    """a.py: eight cheap weak chunks win the per-token order over one dear, better-scored
    chunk; the budget holds the eight (and the file's header) and a few tokens more, beside
    the best hit (b.py, in first as a lead)."""
    best = hit("b.py", "best", 0.9, 40)
    small = [hit("a.py", f"s{i}", 0.40 - 0.001 * i, 40) for i in range(8)]
    big = hit("a.py", "big", 0.5, big_tokens)
    budget = 2 * FILE_HEADER + 40 + 8 * 40 + 10
    options = SelectOptions(budget=budget, max_chunks_per_file=10, displace=displace)
    selection = select([best, big, *small], options, fake_render)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    names = sorted(c.hit.chunk.name for c in selection.chosen if c.hit.chunk.path == "a.py")
    return names, {d.hit.chunk.name: d.reason for d in selection.dropped}


def test_a_chunk_turned_away_for_room_takes_the_place_of_weaker_entries_of_its_file() -> None:
    names, reasons = _file_of_one_liners(330)
    assert names == ["big"]
    assert reasons == {f"s{i}": DropReason.DISPLACED for i in range(8)}
    names, reasons = _file_of_one_liners(330, displace=False)
    assert names == [f"s{i}" for i in range(8)]
    assert reasons["big"] in (DropReason.BUDGET_FULL, DropReason.NO_ROOM)


def test_weaker_entries_stay_when_what_they_free_cannot_hold_the_better_chunk_whole() -> None:
    names, reasons = _file_of_one_liners(400)  # 30 tokens more than the whole file frees
    # the better chunk goes in as its signature in place of the weakest (until 2026-12-02 it
    # was left out while all eight were packed)
    assert names == ["big", *(f"s{i}" for i in range(7))]
    assert reasons == {"s7": DropReason.DISPLACED}
    names, reasons = _file_of_one_liners(400, displace=False)
    assert names == [f"s{i}" for i in range(8)]
    assert reasons["big"] in (DropReason.BUDGET_FULL, DropReason.NO_ROOM)


def _stepped_down(first_named: bool = False) -> dict[str, Fidelity]:
    """As above, but the weak chunks only just win the per-token order, so the better chunk's
    turn comes while a signature of it still fits."""
    best = hit("b.py", "best", 0.9, 40)
    small = [hit("a.py", f"s{i}", 0.30 - 0.001 * i, 40) for i in range(8)]
    if first_named:  # the task names a line of s0 (a name this far below the best would not do)
        small[0] = replace(small[0], features={**small[0].features, "location": 1.0})
    big = hit("a.py", "big", 0.5, 330)
    budget = 2 * FILE_HEADER + 40 + 8 * 40 + 10
    options = SelectOptions(budget=budget, max_chunks_per_file=10, displace=True)
    selection = select([best, big, *small], options, fake_render)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    return {c.hit.chunk.name: c.fidelity for c in selection.chosen if c.hit.chunk.path == "a.py"}


def test_a_chunk_stepped_down_for_room_is_shown_whole_in_place_of_weaker_entries() -> None:
    assert _stepped_down() == {"big": Fidelity.FULL}
    kept = _stepped_down(first_named=True)  # s0, named by the task, stays: too little is freed
    assert kept["big"] is Fidelity.SIGNATURE
    assert sorted(kept) == ["big", *(f"s{i}" for i in range(8))]


def _copied(path: str, name: str, score: float, body: str) -> ScoredChunk:
    return hit(path, name, score, 60, text=body)


def test_a_file_shown_whole_keeps_its_copy_of_a_chunk_another_file_duplicates() -> None:
    """A generated single header holds a copy of the focus file's code: the focus file is
    shown whole, with its own copy, and the header's copy is the near-duplicate."""
    body = "\n".join(f"compare_{i} = rhs_{i}" for i in range(20))
    generated = _copied("single/all.hpp", "operator==", 0.9, body)
    source = _copied("src/pointer.hpp", "operator==", 0.8, body + "\n")
    neighbour = hit("src/pointer.hpp", "split", 0.3, 60)
    options = SelectOptions(budget=1000, whole_files=("src/pointer.hpp",))
    chosen = select([generated, source, neighbour], options, fake_render)
    assert [(c.hit.chunk.path, c.why) for c in chosen.chosen] == [
        ("src/pointer.hpp", PickReason.FOCUS_FILE), ("src/pointer.hpp", PickReason.FOCUS_FILE),
    ]  # fmt: skip
    assert [(d.hit.chunk.path, d.reason) for d in chosen.dropped] == [
        ("single/all.hpp", DropReason.NEAR_DUPLICATE)
    ]


def _copy_capped(budget: int, cap: int = 1) -> Selection:
    """A generated header's copy of operator== scores above the source's own, but the
    header's cap of one chunk is taken by a better chunk of it."""
    body = "\n".join(f"compare_{i} = rhs_{i}" for i in range(20))
    best = hit("single/all.hpp", "parse", 0.95, 60)
    generated = _copied("single/all.hpp", "operator==", 0.9, body)
    source = _copied("src/pointer.hpp", "operator==", 0.8, body + "\n")
    options = SelectOptions(budget=budget, max_chunks_per_file=cap, strict_cap=True)
    return select([best, generated, source], options, fake_render)


def test_a_chunk_its_files_cap_turns_away_goes_in_as_its_copy_in_another_file() -> None:
    chosen = _copy_capped(1000)
    assert [(c.hit.chunk.path, c.hit.chunk.name, c.why) for c in chosen.chosen] == [
        ("single/all.hpp", "parse", PickReason.LEAD),
        ("src/pointer.hpp", "operator==", PickReason.SCORE),
    ]
    assert [(d.hit.chunk.path, d.reason, d.twin) for d in chosen.dropped] == [
        ("single/all.hpp", DropReason.NEAR_DUPLICATE, "src/pointer.hpp:operator==")
    ]  # shown as its copy: room left over does not pack the same text twice


def test_a_copy_whose_twin_is_left_out_is_not_said_to_be_a_duplicate_of_a_kept_chunk() -> None:
    full = _copy_capped(60 + FILE_HEADER + 3)  # room for the best chunk alone
    assert [c.hit.chunk.name for c in full.chosen] == ["parse"]
    drops = {d.hit.chunk.path: d for d in full.dropped if d.hit.chunk.name == "operator=="}
    assert drops["src/pointer.hpp"].reason is DropReason.NEAR_DUPLICATE  # as select leaves it
    twin = drops["src/pointer.hpp"].twin
    assert twin == "single/all.hpp:operator==" and drops["single/all.hpp"].reason is not (
        DropReason.NEAR_DUPLICATE
    )
    accounted = copies_accounted(full.chosen, full.dropped)
    by_path = {d.hit.chunk.path: d for d in accounted if d.hit.chunk.name == "operator=="}
    assert by_path["src/pointer.hpp"].reason is DropReason.COPY_LEFT_OUT
    assert by_path["src/pointer.hpp"].text == "near-duplicate of a chunk left out too"
    assert by_path["single/all.hpp"] == drops["single/all.hpp"]
    kept = copies_accounted(_copy_capped(1000, cap=2).chosen, full.dropped)  # its twin chosen
    assert DropReason.COPY_LEFT_OUT not in {d.reason for d in kept}


def _texts(name: str) -> str:
    return "\n".join(f"{name}_{i} = compare({name}, rhs_{i})" for i in range(20))


def test_a_generated_header_s_copies_go_and_their_sources_chunks_stay() -> None:
    """single/all.hpp holds copies of the chunks of three source files, each scored above its
    source's own, and the sources share a text among themselves too: the sources' copies are
    the ones packed."""
    names = [f"{f}{i}" for f in "abc" for i in range(3)]
    sources = [_copied(f"src/{n[0]}.hpp", n, 0.5 - len(n) / 100, _texts(n)) for n in names]
    header = [_copied("single/all.hpp", n, 0.9, _texts(n)) for n in names]
    shared = _copied("src/b.hpp", "a0", 0.45, _texts("a0"))  # b.hpp copies one of a.hpp's
    hits = [*header, *sources, shared]
    assert copy_holders(hits, near_duplicates(hits)) == {"single/all.hpp"}
    chosen = select(hits, SelectOptions(budget=2000), fake_render)
    assert {c.hit.chunk.path for c in chosen.chosen} == {f"src/{f}.hpp" for f in "abc"}
    assert {(d.hit.chunk.path, d.reason) for d in chosen.dropped} == {
        ("single/all.hpp", DropReason.NEAR_DUPLICATE),
        ("src/b.hpp", DropReason.NEAR_DUPLICATE),
    }


def test_platform_variants_sharing_a_few_functions_are_not_copies_of_each_other() -> None:
    """Four platform files of one module, each sharing a function or two with the others (as
    libuv's proctitle.c, ibmi.c, aix.c): no file is a copy, the best-scored copy of each text
    stays, the task's own file's first."""
    shared = {
        "init_mutex": ["unix/ibmi.c", "unix/proctitle.c", "unix/aix.c"],
        "cleanup": ["unix/ibmi.c", "unix/aix.c"],
        "get_title": ["unix/ibmi.c", "unix/proctitle.c"],
        "set_title": ["unix/ibmi.c", "unix/no-title.c"],
        "setup_args": ["unix/ibmi.c", "unix/no-title.c"],
    }
    hits = [
        _copied(path, name, 0.9 - rank / 10 - i / 100, _texts(name))
        for i, (name, paths) in enumerate(shared.items())
        for rank, path in enumerate(paths)
    ]
    duplicates = near_duplicates(hits)
    assert copy_holders(hits, duplicates) == frozenset()
    chosen = select(hits, SelectOptions(budget=2000, max_chunks_per_file=3), fake_render)
    packed = sorted((c.hit.chunk.name, c.hit.chunk.path) for c in chosen.chosen)
    assert packed == [
        ("cleanup", "unix/ibmi.c"), ("get_title", "unix/ibmi.c"), ("init_mutex", "unix/ibmi.c"),
        ("set_title", "unix/no-title.c"), ("setup_args", "unix/no-title.c"),
    ]  # fmt: skip
    # ibmi.c's capped chunks are shown as their copies, each text once


def test_a_text_in_many_files_makes_none_of_them_a_copy() -> None:
    """A licence header in five files, or a snippet copied out into four examples: the best
    scored copy is kept, as for any near-duplicate."""
    licence = [
        _copied(f"src/m{i}.hpp", "licence", 0.9 - i / 10, _texts("licence")) for i in range(5)
    ]
    snippet = [
        _copied(f"examples/e{i}.py", "snippet", 0.8 - i / 10, _texts("snip")) for i in range(4)
    ]
    source = _copied("src/snippet.py", "snippet", 0.3, _texts("snip"))
    hits = [*licence, *snippet, source]
    assert copy_holders(hits, near_duplicates(hits)) == frozenset()
    chosen = select(hits, SelectOptions(budget=1000), fake_render)
    assert sorted(c.hit.chunk.path for c in chosen.chosen) == ["examples/e0.py", "src/m0.hpp"]


def test_a_focus_file_too_big_to_show_whole_is_not_shown_as_its_uncopied_rest() -> None:
    """Without its copied chunk the file would fit the whole-file share, but it is not whole:
    its other chunks compete on their scores, and the better copy elsewhere goes in."""
    body = "\n".join(f"compare_{i} = rhs_{i}" for i in range(20))
    generated = _copied("single/all.hpp", "operator==", 0.9, body)
    copied = replace(generated, chunk=replace(
        generated.chunk, id="src/pointer.hpp:operator==", path="src/pointer.hpp", tokens=500,
        content_hash="other", text=body + "\n",
    ), score=0.8)  # fmt: skip
    rest = [hit("src/pointer.hpp", f"helper_{i}", 0.1, 60) for i in range(3)]
    better = [hit(f"lib/m{i}.py", f"m{i}", 0.5, 60) for i in range(3)]
    options = SelectOptions(budget=600, whole_files=("src/pointer.hpp",), whole_share=0.5)
    chosen = select([generated, copied, *better, *rest], options, fake_render)
    assert PickReason.FOCUS_FILE not in {c.why for c in chosen.chosen}
    names = [c.hit.chunk.name for c in chosen.chosen if c.fidelity is Fidelity.FULL]
    assert names[:4] == ["operator==", "m0", "m1", "m2"]


def test_in_a_signatures_only_pack_a_chunk_about_as_cheap_in_full_goes_in_full() -> None:
    """A function of a few lines cost 74 tokens as its signature (`// ... line 787 elided`
    standing for its one line) and 76 in full: the full text shows more for about the same."""
    options = SelectOptions(budget=200, start_fidelity=Fidelity.SIGNATURE)
    tiny = select([hit("a.py", "tiny", 0.9, 22)], options, fake_render)  # signature 20
    assert [(c.fidelity, c.stepped) for c in tiny.chosen] == [(Fidelity.FULL, None)]
    assert tiny.spent == 22 + FILE_HEADER
    longer = select([hit("a.py", "longer", 0.9, 60)], options, fake_render)
    assert [c.fidelity for c in longer.chosen] == [Fidelity.SIGNATURE]
    tight = SelectOptions(budget=20 + FILE_HEADER, start_fidelity=Fidelity.SIGNATURE)
    held = select([hit("a.py", "tiny", 0.9, 22)], tight, fake_render)  # full would not fit
    assert [c.fidelity for c in held.chosen] == [Fidelity.SIGNATURE]


def test_in_a_signatures_only_pack_the_best_hits_go_first() -> None:
    """Under 1,000 tokens the leads (the best hits, first) went in at no fidelity at all, so
    the per-token order let cheap weak chunks in first (rich, `render a table with wrapped
    columns` at 209 tokens: a test file's `if __name__ == "__main__":` instead of
    `Table.add_column`)."""
    best = hit("table.py", "add_column", 0.9, 400)
    cheap = [hit(f"t{i}.py", f"main_{i}", 0.3, 5) for i in range(6)]
    room = 20 + FILE_HEADER  # one signature and its file header
    chosen = select(
        [best, *cheap], SelectOptions(budget=room, start_fidelity=Fidelity.SIGNATURE), fake_render
    )
    assert [c.hit.chunk.name for c in chosen.chosen][:1] == ["add_column"]
    assert chosen.chosen[0].fidelity == Fidelity.SIGNATURE
    assert chosen.chosen[0].why is PickReason.LEAD


def _left_out_beside_weaker(better_elsewhere: int) -> Selection:
    """a.py: a dear chunk (the best but for better_elsewhere hits of their own files) and a
    cheap weak one the per-token order lets in before it; b.py: two cheap entries between them
    in score.  The budget is spent when the dear chunk's turn comes, and the weak one frees too
    little to hold it whole."""
    best = [hit(f"c{i}.py", f"c{i}", 0.9 - 0.001 * i, 10) for i in range(better_elsewhere)]
    big = hit("a.py", "big", 0.6, 4000)
    weak = hit("a.py", "weak", 0.3, 30)
    others = [hit("b.py", "b1", 0.35, 40), hit("b.py", "b2", 0.32, 40)]
    budget = sum(FILE_HEADER + 10 for _ in best) + 2 * FILE_HEADER + 30 + 80 + 5
    options = SelectOptions(budget=budget, max_chunks_per_file=8, displace=True)
    selection = select([*best, big, weak, *others], options, fake_render)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    return selection


def test_a_top_ranked_chunk_is_not_left_out_while_a_weaker_one_of_its_file_is_packed() -> None:
    """Issue 18's rule: it goes in as its declaration line in place of another file's weakest
    entry that is not that file's last code; its own file's only code stays (until 2026-12-02
    it was left out as 'the budget is full' while `weak` was packed)."""
    selection = _left_out_beside_weaker(0)
    shown = {c.hit.chunk.name: c for c in selection.chosen}
    assert set(shown) == {"big", "weak", "b1"}
    assert shown["big"].fidelity is Fidelity.SIGNATURE
    assert shown["big"].stepped is StepReason.NO_ROOM
    made_room = {d.hit.chunk.name: d for d in selection.dropped}
    assert set(made_room) == {"b2"} and made_room["b2"].reason is DropReason.MADE_ROOM
    assert made_room["b2"].text == "made room for a higher-scored chunk of another file"


def test_the_rule_holds_for_the_top_twenty_ranks_only() -> None:
    kept = _left_out_beside_weaker(19)  # big is 20th
    assert {c.hit.chunk.name: c.fidelity for c in kept.chosen}["big"] is Fidelity.SIGNATURE
    beyond = _left_out_beside_weaker(20)  # big is 21st: a weaker entry of a.py stays in its way
    names = {c.hit.chunk.name for c in beyond.chosen}
    assert "big" not in names and {"weak", "b1", "b2"} <= names
    reasons = {d.hit.chunk.name: d.reason for d in beyond.dropped}
    assert reasons["big"] in (DropReason.BUDGET_FULL, DropReason.NO_ROOM)


RETRY_TERMS = key_terms("retry after header")


def _long_retry_hit() -> ScoredChunk:
    """a.py's `big`: 100 lines, 1,000 tokens, the words of "retry after header" in line 16."""
    dear = hit("a.py", "big", 0.6, 1000)
    rows = [f"step_{i} = compute(step_{i - 1})" for i in range(100)]
    rows[15] = "timing = retry_after_header(response)"
    return replace(dear, chunk=replace(dear.chunk, end_line=100, text="\n".join(rows)))


def _excerpt_by_line(
    chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None
) -> tuple[str, int]:
    """fake_render, with an excerpt costing 5 tokens a line."""
    if fidelity is Fidelity.EXCERPT and lines is not None:
        return f"excerpt {lines}", 5 * (lines[1] - lines[0] + 1)
    return fake_render(chunk, fidelity, lines)


def _declared_with_key_lines(excerpt_cost: int) -> Selection:
    """a.py: a dear top hit (lines 1-100, its key lines 10-29) that the budget turns away
    while three cheap weak chunks of its file are packed; b.py: two entries between them in
    score.  The rule lets the dear one in as its declaration line first."""
    big = _long_retry_hit()
    weak = [hit("a.py", f"w{i}", 0.3 - 0.01 * i, 30) for i in range(3)]
    others = [hit("b.py", "b1", 0.35, 40), hit("b.py", "b2", 0.32, 40)]
    budget = 2 * FILE_HEADER + 3 * 30 + 80 + 5

    def render(
        chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None
    ) -> tuple[str, int]:
        if fidelity is Fidelity.EXCERPT:
            return f"excerpt {lines}", excerpt_cost
        return fake_render(chunk, fidelity, lines)

    options = SelectOptions(
        budget=budget, max_chunks_per_file=8, displace=True, key_terms=RETRY_TERMS
    )
    selection = select([big, *weak, *others], options, render)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    return selection


def test_a_top_hit_let_in_short_shows_its_key_lines_in_place_of_weaker_ones_of_its_file() -> None:
    selection = _declared_with_key_lines(excerpt_cost=70)
    shown = {c.hit.chunk.name: c for c in selection.chosen}
    assert set(shown) == {"big", "b1", "b2"}  # the other file keeps its entries
    lines = shown["big"].lines
    assert shown["big"].fidelity is Fidelity.EXCERPT and lines is not None
    assert lines[0] <= 16 <= lines[1] and lines[1] - lines[0] + 1 == KEY_LINES  # retry's row
    assert shown["big"].stepped is StepReason.NO_ROOM
    assert {d.hit.chunk.name: d.reason for d in selection.dropped} == {
        f"w{i}": DropReason.DISPLACED for i in range(3)
    }  # until 2026-12-02 big showed only its declaration line beside w0 and w1


def test_a_top_hit_stays_a_declaration_when_its_file_cannot_free_room_for_its_key_lines() -> None:
    selection = _declared_with_key_lines(excerpt_cost=200)
    shown = {c.hit.chunk.name: c.fidelity for c in selection.chosen}
    assert shown == {"big": Fidelity.SIGNATURE, "w0": Fidelity.FULL, "w1": Fidelity.FULL,
                     "b1": Fidelity.FULL, "b2": Fidelity.FULL}  # fmt: skip
    assert {d.hit.chunk.name: d.reason for d in selection.dropped} == {"w2": DropReason.DISPLACED}


def _only_code_of_each_file_in_the_way(weak_cost: int) -> Selection:
    """a.py: a top hit of 100 lines (the task's words in line 16) the budget turns away, and
    a weak chunk that is a.py's only other entry; b.py: one entry between them in score.  Each
    file's last code stays for a declaration line (declare), so the rule needs the top hit's
    key lines, as many as the weak chunk's room holds (an excerpt costs 5 tokens a line)."""
    big = _long_retry_hit()
    weak = hit("a.py", "weak", 0.3, weak_cost)
    other = hit("b.py", "b1", 0.35, 40)
    budget = 2 * FILE_HEADER + weak_cost + 40 + 5

    options = SelectOptions(
        budget=budget, max_chunks_per_file=8, displace=True, path_entries=False,
        key_terms=RETRY_TERMS,
    )  # fmt: skip
    selection = select([big, weak, other], options, _excerpt_by_line)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= budget
    return selection


def test_a_top_hit_shows_as_many_key_lines_as_its_files_weaker_code_frees() -> None:
    """Until 2026-12-02 `big` stayed out while `weak` was packed: a.py's and b.py's only code
    could not make room even for its declaration line, and 20 key lines did not fit."""
    selection = _only_code_of_each_file_in_the_way(weak_cost=60)
    shown = {c.hit.chunk.name: c for c in selection.chosen}
    assert set(shown) == {"big", "b1"}
    lines = shown["big"].lines
    assert shown["big"].fidelity is Fidelity.EXCERPT and lines is not None
    assert lines[1] - lines[0] + 1 == 60 // 5 + 1  # the weak one's 60 tokens and the 5 left
    assert lines[0] <= 16 <= lines[1] and shown["big"].stepped is StepReason.NO_ROOM
    assert {d.hit.chunk.name: d.reason for d in selection.dropped} == {"weak": DropReason.DISPLACED}


def test_where_fewer_than_min_key_lines_fit_the_top_hit_is_in_as_its_declaration() -> None:
    """Until 2026-12-03 `big` stayed out while `weak`, a.py's only other code, was packed:
    fewer than MIN_KEY_LINES of it fitted in what `weak` frees, and declare keeps a file's
    last code.  Its declaration line now takes that place: a.py shows where its best code is."""
    selection = _only_code_of_each_file_in_the_way(weak_cost=30)  # room for 7 lines
    assert MIN_KEY_LINES > 30 // 5 + 1
    shown = {c.hit.chunk.name: c for c in selection.chosen}
    assert set(shown) == {"big", "b1"}
    assert shown["big"].fidelity is Fidelity.SIGNATURE  # 20 of the 35 tokens `weak` frees
    assert shown["big"].stepped is StepReason.NO_ROOM
    assert {d.hit.chunk.name: d.reason for d in selection.dropped} == {"weak": DropReason.DISPLACED}
    stub = {c.hit.chunk.name: c.fidelity for c in _only_code_of_each_file_in_the_way(9).chosen}
    assert stub == {"big": Fidelity.STUB, "b1": Fidelity.FULL}  # 14 tokens: its stub, 8


def test_a_top_hit_whose_declaration_does_not_fit_leaves_its_files_code_as_it_is() -> None:
    selection = _only_code_of_each_file_in_the_way(weak_cost=2)  # 7 tokens: not even a stub
    assert {c.hit.chunk.name for c in selection.chosen} == {"weak", "b1"}
    reasons = {d.hit.chunk.name: d.reason for d in selection.dropped}
    assert reasons == {"big": DropReason.BUDGET_FULL}


def _long_chunk_in_less_room(task: str) -> Selection:
    """a.py: one long chunk (100 lines, the task's words in line 16, no focus window) in a
    budget that holds its key lines (5 tokens a line) but not all of it."""
    big = _long_retry_hit()

    options = SelectOptions(budget=FILE_HEADER + 150, key_terms=key_terms(task))
    selection = select([big], options, _excerpt_by_line)
    assert selection.spent == sum(c.tokens for c in selection.chosen) <= options.budget
    return selection


def test_a_long_chunk_that_does_not_fit_whole_shows_its_key_lines_not_its_declaration() -> None:
    """Until 2026-12-07 a chunk with no focus window that the room could not hold whole went
    in as its declaration line (ky's `export type Hooks = {` and a marker, 26 tokens, in a 16k
    pack with 700 tokens left): now as the stretch of its lines that holds the task's words."""
    (entry,) = _long_chunk_in_less_room("retry after header").chosen
    assert entry.fidelity is Fidelity.EXCERPT and entry.stepped is StepReason.NO_ROOM
    assert entry.lines is not None and entry.lines[0] <= 16 <= entry.lines[1]
    assert entry.lines[1] - entry.lines[0] + 1 == KEY_LINES
    (named_nothing,) = _long_chunk_in_less_room("speed up the parser").chosen
    assert named_nothing.fidelity is Fidelity.SIGNATURE  # no line holds a word of the task


def test_a_chunk_that_renders_empty_is_accounted_for_once() -> None:
    """Later steps try a turned-away chunk again (room left over, a better chunk of its file);
    a chunk whose compressed text is empty was listed once per try, and `--explain` showed it
    as often.  Every candidate is either chosen or left out, once."""

    def empty_in_full(
        chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None
    ) -> tuple[str, int]:
        if chunk.name == "blank" and fidelity in (Fidelity.FULL, Fidelity.EXCERPT):
            return "", 0
        return fake_render(chunk, fidelity, lines)

    hits = [hit("a.py", "blank", 0.9, 100), hit("b.py", "x", 0.5, 50), hit("a.py", "y", 0.4, 50)]
    for budget in (60, 200, 1000):
        selection = select(hits, SelectOptions(budget=budget), empty_in_full)
        chosen = [c.hit.chunk.id for c in selection.chosen]
        dropped = [d.hit.chunk.id for d in selection.dropped]
        assert len(set(chosen)) == len(chosen)
        assert len(set(dropped)) == len(dropped)
        assert not set(chosen) & set(dropped)
        assert set(chosen) | set(dropped) == {h.chunk.id for h in hits}
        assert [d.reason for d in selection.dropped if d.hit.chunk.name == "blank"] == [
            DropReason.EMPTY
        ]
