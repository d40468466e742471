"""Every language record has a sample in fixtures/languages/ that chunks as it should.

Adding a language means adding its record and a sample file; this test fails until the
sample exists and its chunks come from the record's chunker (for code: tree-sitter
declarations, not the line-window fallback).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.chunking.parse import parse
from ctxopt.languages import ALL, Chunker, Language, detect_language
from ctxopt.types import ChunkKind

LANG_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "languages"
DECLARATIONS = {
    ChunkKind.FUNCTION,
    ChunkKind.METHOD,
    ChunkKind.CLASS,
    ChunkKind.INTERFACE,
    ChunkKind.TYPE,
    ChunkKind.TEST,
}
EXPECTED_KINDS = {
    Chunker.MARKDOWN: {ChunkKind.DOC},
    Chunker.CONFIG: {ChunkKind.CONFIG},
    Chunker.LINES: {ChunkKind.DOC},
}


def samples_of(record: Language) -> list[Path]:
    return sorted(p for p in LANG_DIR.iterdir() if detect_language(p.name) == record.name)


@pytest.mark.parametrize("record", ALL, ids=lambda r: r.name)
def test_each_language_has_a_sample(record: Language) -> None:
    assert samples_of(record), f"add a sample of {record.name} to {LANG_DIR}"


@pytest.mark.parametrize("record", ALL, ids=lambda r: r.name)
def test_each_sample_chunks_with_its_records_chunker(record: Language) -> None:
    for path in samples_of(record):
        text = path.read_text(encoding="utf-8")
        result = chunk_file(path.name, text, record.name)
        kinds = {chunk.kind for chunk in result.chunks}
        assert result.fallback_reason == "", (path.name, result.fallback_reason)
        if record.chunker is Chunker.CODE:
            tree = parse(record.name, text.encode("utf-8"), timeout_s=10.0)
            assert not tree.root_node.has_error, path.name
            assert kinds & DECLARATIONS, (path.name, kinds)
            assert any(c.signature for c in result.chunks if c.kind in DECLARATIONS)
        else:
            assert kinds and kinds <= EXPECTED_KINDS[record.chunker], (path.name, kinds)
