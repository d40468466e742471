from ctxopt.pack.explain import drops_to_explain
from ctxopt.pack.select import SelectOptions, select
from ctxopt.types import DropReason, Fidelity

from .test_select import fake_render, hit


def test_every_candidate_above_the_last_chunk_shown_is_listed_first() -> None:
    # 49 near-duplicate drops come first in the drop list; the strong chunk that did not fit
    # is turned away after them, where a list of the first 40 drops never reached it
    body = "\n".join(f"value_{i} = {i}" for i in range(20))
    copies = [hit(f"copy{i}.py", f"c{i}", 0.3, 40, text=body + "\n" * i) for i in range(50)]
    small = [hit(f"s{i}.py", f"s{i}", 0.8 - i * 0.01, 30) for i in range(4)]
    strong = hit("b.py", "strong", 0.85, 2000)
    hits = sorted([*copies, *small, strong], key=lambda h: -h.score)
    budget = 4 * (30 + 24) + 11  # the four small ones, then no room for any entry
    selection = select(hits, SelectOptions(budget=budget), fake_render)
    assert {c.hit.chunk.name for c in selection.chosen} == {"s0", "s1", "s2", "s3"}
    late = [i for i, d in enumerate(selection.dropped) if d.hit.chunk.name == "strong"]
    assert late and late[0] >= 40
    report = drops_to_explain(selection.chosen, selection.dropped, below=3)
    assert report.floor == small[-1].score
    assert [d.hit.chunk.name for d in report.above] == ["strong"]
    assert report.above[0].reason is DropReason.BUDGET_FULL
    assert len(report.below) == 3
    assert report.unlisted == len(selection.dropped) - 1 - 3
    shown = {c.hit.chunk.id for c in selection.chosen if c.fidelity is not Fidelity.PATH}
    listed = {d.hit.chunk.id for d in report.above}
    for h in hits:  # every candidate at or above the floor is shown or listed
        if h.score >= report.floor:
            assert h.chunk.id in shown or h.chunk.id in listed, h.chunk.name


def test_nothing_shown_lists_only_the_best_drops() -> None:
    drops = select([hit("a.py", "f", 0.5, 10)], SelectOptions(budget=0), fake_render)
    report = drops_to_explain(drops.chosen, drops.dropped)
    assert report.floor is None and report.above == ()
    assert [d.hit.chunk.name for d in report.below] == ["f"]


def test_explain_accounts_for_a_capped_file_whose_better_chunk_displaced_a_weaker_one() -> None:
    small = [hit("a.py", f"s{i}", 0.5 - 0.05 * i, 20) for i in range(3)]
    big = hit("a.py", "big", 0.6, 400)
    other = hit("b.py", "other", 0.2, 20)
    hits = [big, *small, other]
    options = SelectOptions(budget=454 + 44, max_chunks_per_file=2, displace=True)
    selection = select(hits, options, fake_render)
    names = {c.hit.chunk.name for c in selection.chosen}
    assert {"big", "s0"} <= names and "s1" not in names
    report = drops_to_explain(selection.chosen, selection.dropped)
    chosen = {c.hit.chunk.id for c in selection.chosen}
    listed = {d.hit.chunk.id: d.reason for d in report.above}
    assert report.floor is not None
    for h in hits:  # every candidate scored above the last entry shown is packed or listed
        if h.score >= report.floor:
            assert h.chunk.id in chosen or h.chunk.id in listed, h.chunk.name
    assert listed["a.py:s1"] is DropReason.DISPLACED
