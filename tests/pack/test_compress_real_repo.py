"""Light and medium compression add no parse errors on a real repository: this one.

Every file ctxopt would index here (its own Python, the fixture samples in 20 languages)
is compressed whole and chunk by chunk, as `pack` does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.discover.walk import discover
from ctxopt.languages import detect_language
from ctxopt.pack.compress import GRAMMAR_LANGUAGES, compress, raw_parse_errors
from helpers import ROOT


def repo_sources() -> list[tuple[str, str, str]]:
    found = discover(ROOT)
    out = []
    for source in found.files:
        if source.language in GRAMMAR_LANGUAGES:
            text = Path(source.abs_path).read_text(encoding="utf-8", errors="replace")
            out.append((source.path, source.language, text))
    return out


SOURCES = repo_sources()


def test_the_repository_has_many_languages() -> None:
    assert len({language for _, language, _ in SOURCES}) >= 15
    assert len(SOURCES) > 100


@pytest.mark.parametrize("level", ["light", "medium"])
def test_whole_files_gain_no_parse_errors(level: str) -> None:
    worse = [
        path
        for path, language, text in SOURCES
        if raw_parse_errors(compress(text, language, level), language)  # type: ignore[arg-type]
        > raw_parse_errors(text, language)
    ]
    assert worse == []


@pytest.mark.parametrize("level", ["light", "medium"])
def test_chunks_as_pack_sees_them_never_grow(level: str) -> None:
    checked = 0
    for path, language, text in SOURCES:
        for chunk in chunk_file(path, text, detect_language(path)).chunks:
            out = compress(chunk.text, language, level, start_line=chunk.start_line)  # type: ignore[arg-type]
            assert len(out) <= len(chunk.text), (path, chunk.name)
            checked += 1
    assert checked > 1000
