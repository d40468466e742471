"""The compressor over chunks of generated and mutated source (hypothesis): it never raises,
never costs more tokens than the text it was given, and its markers name lines of the chunk."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ctxopt import tokens
from ctxopt.chunking import chunk_file
from ctxopt.chunking.numbering import split_lines
from ctxopt.pack.compress import LEVELS, compress, signature_stub
from ctxopt.types import Chunk, ChunkKind
from fuzzsource import EXTENSIONS, LANGUAGES, fuzz_settings, sources

MARKER = re.compile(r"\.\.\. lines? (\d+)(?:-(\d+))? elided")


def assert_markers_inside(out: str, chunk: Chunk) -> None:
    for first, last in MARKER.findall(out):
        low, high = int(first), int(last or first)
        assert chunk.start_line <= low <= high <= chunk.end_line, (out, chunk.start_line)


def assert_compresses(chunk: Chunk) -> None:
    for level in LEVELS:
        out = compress(chunk.text, chunk.language, level, start_line=chunk.start_line)
        assert isinstance(out, str)
        assert tokens.count(out) <= chunk.tokens, level
        assert_markers_inside(out, chunk)
    stub = signature_stub(chunk.text, chunk.language, start_line=chunk.start_line)
    assert tokens.count(stub) <= chunk.tokens
    assert_markers_inside(stub, chunk)


@fuzz_settings(70)
@given(sources())
def test_compressing_chunks_of_mutated_source(source: tuple[str, str]) -> None:
    language, text = source
    chunks = chunk_file(f"src/fuzzed{EXTENSIONS[language]}", text, language).chunks
    for chunk in chunks[:6]:
        assert_compresses(chunk)


@fuzz_settings(60)
@given(sources(), st.integers(1, 100_000))
def test_compressing_any_slice_at_any_line(source: tuple[str, str], start: int) -> None:
    """A fragment that starts or ends mid-construct, as excerpts and split chunks do."""
    language, text = source
    rows = split_lines(text)
    middle = len(rows) // 3
    fragment = "\n".join(rows[middle : middle * 2 + 1])
    chunk = Chunk(
        id="x",
        path="a",
        language=language,
        kind=ChunkKind.MODULE,
        name="f",
        qualified_name="f",
        signature="",
        docstring="",
        start_line=start,
        end_line=start + max(0, len(split_lines(fragment)) - 1),
        text=fragment,
        tokens=tokens.count(fragment),
        content_hash="",
    )
    assert_compresses(chunk)


@fuzz_settings(40)
@given(st.sampled_from(LANGUAGES), st.text(st.characters(exclude_categories=["Cs"]), max_size=400))
def test_compressing_arbitrary_text(language: str, text: str) -> None:
    for level in LEVELS:
        assert tokens.count(compress(text, language, level)) <= tokens.count(text)
