"""The package's imports keep the stage order and form no cycle (STYLE.md, layout)."""

from __future__ import annotations

import shutil
from pathlib import Path

import layers

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "src" / "ctxopt"


def test_no_stage_imports_a_higher_one() -> None:
    assert layers.layer_violations(layers.import_graph(PACKAGE_DIR)) == []


def test_no_import_cycle() -> None:
    assert layers.cycles(layers.import_graph(PACKAGE_DIR)) == []


def test_every_top_level_module_has_a_stage() -> None:
    names = {p.stem for p in PACKAGE_DIR.glob("*.py")} - {"__init__"}
    names |= {p.parent.name for p in PACKAGE_DIR.glob("*/__init__.py")}
    assert names <= set(layers.STAGES), names - set(layers.STAGES)


def test_retrieval_only_reads_and_packing_never_opens_the_index() -> None:
    graph = layers.import_graph(PACKAGE_DIR)
    writers = {"ctxopt.index.build", "ctxopt.index.process"}
    for module, targets in graph.items():
        if module.startswith("ctxopt.retrieve"):
            assert not targets & writers, (module, targets & writers)
    for file in (PACKAGE_DIR / "pack").rglob("*.py"):
        assert "IndexReader(" not in file.read_text(encoding="utf-8"), file


def test_a_planted_upward_import_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "ctxopt"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / "discover" / "walk.py"
    target.write_text(
        target.read_text(encoding="utf-8")
        + "\n\ndef _late() -> None:\n    from ctxopt.pack import render  # noqa\n",
        encoding="utf-8",
    )
    problems = layers.layer_violations(layers.import_graph(copy))
    assert problems == [
        "ctxopt.discover.walk -> ctxopt.pack.render: discover imports the higher stage pack"
    ]


def test_a_planted_relative_import_of_a_higher_stage_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "ctxopt"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / "index" / "plan.py"
    target.write_text(
        "from ..retrieve import search  # noqa\n" + target.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    problems = layers.layer_violations(layers.import_graph(copy))
    assert problems == [
        "ctxopt.index.plan -> ctxopt.retrieve.search: index imports the higher stage retrieve"
    ]


def test_an_unknown_stage_is_a_violation() -> None:
    graph = {"ctxopt.pack.api": {"ctxopt.newstage.thing"}}
    assert layers.layer_violations(graph) == [
        "ctxopt.pack.api -> ctxopt.newstage.thing: stage not in the order"
    ]


def test_cycles_are_found_within_and_across_stages() -> None:
    graph = {
        "ctxopt.index.a": {"ctxopt.index.b"},
        "ctxopt.index.b": {"ctxopt.index.c"},
        "ctxopt.index.c": {"ctxopt.index.a", "ctxopt.types"},
        "ctxopt.types": set(),
        "ctxopt.pack.x": {"ctxopt.retrieve.y"},
        "ctxopt.retrieve.y": {"ctxopt.pack.x"},
    }
    assert layers.cycles(graph) == [
        ["ctxopt.index.a", "ctxopt.index.b", "ctxopt.index.c"],
        ["ctxopt.pack.x", "ctxopt.retrieve.y"],
    ]
    assert layers.layer_violations(graph) == [
        "ctxopt.retrieve.y -> ctxopt.pack.x: retrieve imports the higher stage pack"
    ]


def test_a_graph_without_cycles_has_none() -> None:
    graph = {"ctxopt.a.x": {"ctxopt.b.y"}, "ctxopt.b.y": {"ctxopt.c.z"}, "ctxopt.c.z": set()}
    assert layers.cycles(graph) == []
