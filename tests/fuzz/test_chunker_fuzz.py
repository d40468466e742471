"""The chunker over generated and mutated source (hypothesis): it never raises, and every
chunk's lines are a valid range of the file whose text is exactly those lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ctxopt import tokens
from ctxopt.chunking import chunk_file
from ctxopt.chunking.decode import decode_bytes
from ctxopt.chunking.numbering import split_lines
from ctxopt.types import ChunkedFile
from fuzzsource import EXTENSIONS, LANGUAGES, fuzz_settings, sources


def assert_valid_chunks(path: str, text: str, chunked: ChunkedFile) -> None:
    lines = split_lines(text)  # how the index numbers a file's lines (chunking.source_lines)
    ids = [c.id for c in chunked.chunks]
    assert len(ids) == len(set(ids)), "chunk ids repeat"
    for chunk in chunked.chunks:
        assert chunk.path == path
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines), (
            chunk.qualified_name,
            chunk.start_line,
            chunk.end_line,
            len(lines),
        )
        if not chunk.summary:  # a class summary is its outline, not a run of lines
            assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert chunk.tokens == tokens.count(chunk.text)


@fuzz_settings(140)
@given(sources())
def test_chunks_of_mutated_source_are_exact_line_ranges(source: tuple[str, str]) -> None:
    language, text = source
    path = f"src/fuzzed{EXTENSIONS[language]}"
    chunked = chunk_file(path, text, language)
    assert_valid_chunks(path, text, chunked)
    if text.strip():
        assert chunked.chunks, "a file with text got no chunk"


@fuzz_settings(60)
@given(st.sampled_from(LANGUAGES), st.binary(max_size=2_000))
def test_chunks_of_random_bytes_are_exact_line_ranges(language: str, raw: bytes) -> None:
    path = f"lib/noise{EXTENSIONS[language]}"
    text = decode_bytes(raw, path).text  # as the indexer reads a file
    assert_valid_chunks(path, text, chunk_file(path, text, language))
