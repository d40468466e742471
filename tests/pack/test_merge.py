"""Neighbouring whole chunks of a file share one entry: one label, one fence."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from ctxopt.chunking import chunk_file
from ctxopt.languages import detect_language
from ctxopt.pack.content import chunk_content
from ctxopt.pack.fit import Fitting, top_up
from ctxopt.pack.render import RenderInput, group_by_file, render
from ctxopt.pack.select import FILE_HEADER, Render
from ctxopt.pack.work_tree import WorkTree
from ctxopt.types import (
    Choice,
    Chunk,
    Dropped,
    DropReason,
    Fidelity,
    PickReason,
    ScoredChunk,
)
from helpers import SAMPLE_REPO

PATH = "inventory/storage.py"
FULL, SIGNATURE = Fidelity.FULL, Fidelity.SIGNATURE


def pick(root: Path, *wanted: tuple[str, Fidelity]) -> list[Choice]:
    text = (root / PATH).read_text()
    chunks = {c.name: c for c in chunk_file(PATH, text, detect_language(PATH)).chunks}
    out = []
    for name, fidelity in wanted:
        chunk = chunks[name]
        hit = ScoredChunk(chunk, 1.0, {}, (), {})
        out.append(
            Choice(hit, fidelity, chunk_content(chunk, fidelity, "none"), 0, PickReason.SCORE)
        )
    return out


def prompt(choices: list[Choice], root: Path, *, line_numbers: bool = False) -> str:
    groups = tuple(group_by_file(choices, gap_is_blank=WorkTree(root).only_blank_between))
    data = RenderInput("repo", "task", groups, (), "", len(groups), 1, 100, line_numbers)
    return render(data, "markdown")


def test_neighbours_merge_into_the_exact_lines_of_the_file() -> None:
    both = pick(SAMPLE_REPO, ("warehouse_to_dict", FULL), ("save_inventory", FULL))
    first, last = both[0].start_line, both[1].end_line
    assert both[1].start_line - both[0].end_line > 1  # blank lines between them
    (group,) = group_by_file(both, gap_is_blank=WorkTree(SAMPLE_REPO).only_blank_between)
    assert [len(entry) for entry in group.entries] == [1 + 1]
    text = prompt(both, SAMPLE_REPO)
    assert f"warehouse_to_dict, save_inventory (lines {first}-{last})\n" in text
    file_lines = (SAMPLE_REPO / PATH).read_text().split("\n")[first - 1 : last]
    assert "```python\n" + "\n".join(file_lines) + "\n```" in text
    numbered = prompt(both, SAMPLE_REPO, line_numbers=True)
    assert f"{first}| " in numbered and f"{last}| " in numbered
    assert f"{both[0].end_line + 1}| \n" in numbered  # the blank line between, numbered too


def test_no_merge_without_proof_of_blank_lines_or_for_partial_entries() -> None:
    both = pick(SAMPLE_REPO, ("warehouse_to_dict", FULL), ("save_inventory", FULL))
    assert [len(e) for e in group_by_file(both)[0].entries] == [1, 1]
    mixed = pick(SAMPLE_REPO, ("save_inventory", FULL), ("load_inventory", SIGNATURE))
    groups = group_by_file(mixed, gap_is_blank=WorkTree(SAMPLE_REPO).only_blank_between)
    assert [len(e) for e in groups[0].entries] == [1, 1]


def test_gap_check_refuses_code_between_and_edited_files(tmp_path: Path) -> None:
    far = pick(SAMPLE_REPO, ("warehouse_to_dict", FULL), ("load_inventory", FULL))
    check = WorkTree(SAMPLE_REPO).only_blank_between
    assert not check(far[0].hit.chunk, far[1].hit.chunk)  # save_inventory lies between
    near = pick(SAMPLE_REPO, ("warehouse_to_dict", FULL), ("save_inventory", FULL))
    assert check(near[0].hit.chunk, near[1].hit.chunk)
    edited = tmp_path / "repo"
    shutil.copytree(SAMPLE_REPO / "inventory", edited / "inventory")
    source = edited / PATH
    lines = source.read_text().split("\n")
    lines.insert(near[0].end_line, "LIMIT = 3")  # a line of code where the gap was
    source.write_text("\n".join(lines))
    assert not WorkTree(edited).only_blank_between(near[0].hit.chunk, near[1].hit.chunk)
    missing = WorkTree(tmp_path / "missing")
    assert not missing.only_blank_between(near[0].hit.chunk, near[1].hit.chunk)


def test_room_left_by_merging_goes_to_hits_turned_away_for_room_in_their_order() -> None:
    (base,) = pick(SAMPLE_REPO, ("save_inventory", FULL))

    def hit(name: str, path: str = PATH) -> ScoredChunk:
        return replace(base.hit, chunk=replace(base.hit.chunk, id=name, name=name, path=path))

    def cost_of(chunk: Chunk, fidelity: Fidelity, lines: object = None) -> tuple[str, int]:
        return f"body of {chunk.name}", 300 if chunk.name == "big" else 50

    dropped = [
        Dropped(hit("first"), DropReason.BUDGET_FULL),
        Dropped(hit("capped"), DropReason.PER_FILE_CAP, 8),
        Dropped(hit("big"), DropReason.BUDGET_FULL),
        Dropped(hit("second"), DropReason.BUDGET_FULL),
        Dropped(hit("third"), DropReason.BUDGET_FULL),
    ]
    fitting = _fitting(cost_of)
    extra = top_up([base], dropped, 2 * 50 + 10, fitting)
    assert [c.hit.chunk.name for c in extra] == ["first", "second"]
    assert all(c.why is PickReason.TOP_UP and c.fidelity == FULL for c in extra)
    elsewhere = [Dropped(hit("new", "other.py"), DropReason.BUDGET_FULL)]
    assert top_up([base], elsewhere, 50 + FILE_HEADER - 1, fitting) == []  # its file's header
    assert len(top_up([base], elsewhere, 50 + FILE_HEADER, fitting)) == 1
    # the user's cap of one chunk per file: room left never adds a second chunk of the file
    capped = _fitting(cost_of, cap=1)
    both = [*dropped, *elsewhere]
    assert [c.hit.chunk.name for c in top_up([base], both, 1000, capped)] == ["new"]
    exempt = _fitting(cost_of, cap=1, exempt=frozenset({PATH}))
    assert [c.hit.chunk.name for c in top_up([base], dropped[:1], 1000, exempt)] == ["first"]
    two = _fitting(cost_of, cap=2)
    assert [c.hit.chunk.name for c in top_up([base], dropped, 1000, two)] == ["first"]


def _fitting(
    render: Render, cap: int | None = None, exempt: frozenset[str] = frozenset()
) -> Fitting:
    return Fitting(
        render,
        lambda before, after: False,
        None,
        top_up=True,
        order="relevance",
        format="markdown",
        cap=cap,
        cap_exempt=exempt,
    )


def test_work_tree_lines_are_numbered_as_the_index_numbers_them(tmp_path: Path) -> None:
    from ctxopt.chunking import source_lines

    target = tmp_path / "a.py"
    target.write_bytes(b"\xef\xbb\xbfx = 1\n\x0cy = 2\r\nz = 3\n")
    assert source_lines(target) == ["x = 1", "\x0cy = 2", "z = 3"]  # BOM off, \f no break
    assert source_lines(target, max_bytes=5) is None
    assert source_lines(tmp_path / "missing.py") is None


def test_a_one_line_entry_is_cited_as_one_line(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "inventory").mkdir(parents=True)
    (root / PATH).write_text("def g(y):\n    return y\n\n\ndef f(x): return x + 1\n")
    text = (root / PATH).read_text()
    chunks = chunk_file(PATH, text, detect_language(PATH)).chunks
    one = next(c for c in chunks if c.start_line == c.end_line == 5)
    hit = ScoredChunk(one, 1.0, {}, (), {})
    choice = Choice(hit, FULL, chunk_content(one, FULL, "none"), 0, PickReason.SCORE)
    rendered = prompt([choice], root)
    assert f"## {PATH} (python, line 5)\n" in rendered  # not "lines 5-5"
    assert "function f (line 5)\n```python\ndef f(x): return x + 1\n```" in rendered
    assert "5-5" not in rendered
