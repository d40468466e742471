"""Markdown sections and config grouping."""

from __future__ import annotations

from ctxopt.chunking import chunk_file
from ctxopt.types import ChunkKind
from tests.chunking.conftest import chunk_fixture


def test_markdown_one_chunk_per_section_ignoring_fenced_hashes():
    chunks = chunk_fixture("README.md").chunks
    assert [c.name for c in chunks] == [
        "Fixture Project",
        "Installation",
        "Usage",
        "Options",
        "Exit codes",
        "Configuration",
        "License",
    ]
    assert {c.kind for c in chunks} == {ChunkKind.DOC}
    assert all(c.complexity == 1 and c.references == () for c in chunks)


def test_big_markdown_section_is_split():
    para = "Some words about the design of the thing.\n" * 10 + "\n"
    text = "# Title\n\nIntro.\n\n## Big\n\n" + para * 30
    chunks = chunk_file("d.md", text, "markdown").chunks
    big = [c for c in chunks if c.name.startswith("Big")]
    assert len(big) >= 3 and big[1].name == "Big#2"
    assert all(c.end_line - c.start_line < 120 for c in big)


def test_setext_headings():
    text = "Title\n=====\n\nintro\n\nPart\n----\n\nbody\n"
    chunks = chunk_file("d.md", text, "markdown").chunks
    assert [(c.name, c.start_line) for c in chunks] == [("Title", 1), ("Part", 6)]


def test_big_yaml_groups_top_level_keys():
    blocks = "".join(
        f"section_{i}:\n" + "".join(f"  key_{j}: value number {j} of {i}\n" for j in range(12))
        for i in range(20)
    )
    chunks = chunk_file("big.yaml", blocks, "yaml").chunks
    assert len(chunks) > 2 and {c.kind for c in chunks} == {ChunkKind.CONFIG}
    assert chunks[0].name == "section_0" and "section_1" in chunks[0].defines
    starts = [c.start_line for c in chunks]
    assert all(blocks.splitlines()[s - 1].startswith("section_") for s in starts)


def test_big_json_and_toml_group_keys():
    body = ",\n".join(
        f'  "k{i}": {{\n    "a": "{"x" * 40}",\n    "b": [1, 2, 3]\n  }}' for i in range(60)
    )
    chunks = chunk_file("big.json", "{\n" + body + "\n}\n", "json").chunks
    assert len(chunks) > 1 and chunks[1].name.startswith("k")
    toml = "title = 'x'\n\n" + "".join(
        f"[table_{i}]\n" + "".join(f"key_{j} = 'value {j} {'y' * 30}'\n" for j in range(8)) + "\n"
        for i in range(30)
    )
    tchunks = chunk_file("big.toml", toml, "toml").chunks
    assert tchunks[0].name == "title" and tchunks[1].name.startswith("table_")


def test_small_config_is_one_chunk():
    chunks = chunk_fixture("config.yaml").chunks
    assert len(chunks) == 1
    assert chunks[0].defines[:5] == ("service", "database", "logging", "features", "retry")
    assert chunks[0].defines[5:] == ("cache", "metrics")
