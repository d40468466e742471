from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.languages import detect_language
from ctxopt.types import Chunk, ChunkedFile

ROOT = Path(__file__).resolve().parents[2]
LANG_DIR = ROOT / "fixtures" / "languages"
REPO_DIR = ROOT / "fixtures" / "sample_repo"


def chunk_fixture(name: str) -> ChunkedFile:
    text = (LANG_DIR / name).read_text(encoding="utf-8")
    return chunk_file(name, text, detect_language(name))


def many_methods(head: str, statement: str, tail: str, *, lines: int = 30) -> str:
    """Four methods, enough code for a class to be cut into its members: each is `head`,
    `lines` statements and `tail`, where `{i}` is the method's number and `{j}` the
    statement's (`str.format` fields: a literal brace is doubled)."""
    return "".join(
        head.format(i=i) + "".join(statement.format(i=i, j=j) for j in range(lines)) + tail
        for i in range(4)
    )


def by_name(chunks: tuple[Chunk, ...], qualified: str, kind: str = "") -> Chunk:
    found = [
        c
        for c in chunks
        if c.qualified_name == qualified and (not kind or c.kind.value == kind) and not c.summary
    ]
    assert found, f"no chunk {qualified!r} in {[c.qualified_name for c in chunks]}"
    return found[0]


@pytest.fixture
def fixture_files() -> list[Path]:
    return sorted(p for p in LANG_DIR.iterdir() if p.is_file()) + sorted(
        p for p in REPO_DIR.rglob("*") if p.is_file()
    )
