"""Chunking: split one source file into retrievable chunks (tree-sitter, with a line fallback).

Public API: read_source, chunk_file, CHUNKER_VERSION.  chunk_file never raises.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from tree_sitter import Tree

from ctxopt.chunking.build import build_chunks, split_long
from ctxopt.chunking.code import code_drafts
from ctxopt.chunking.decode import decode_bytes
from ctxopt.chunking.draft import Draft
from ctxopt.chunking.lines import is_prose, window_drafts
from ctxopt.chunking.markup import config_drafts, markdown_drafts
from ctxopt.chunking.numbering import split_lines
from ctxopt.chunking.parse import ParseFailure, error_bytes
from ctxopt.chunking.parse import parse as parse_source
from ctxopt.chunking.repair import stand_in
from ctxopt.chunking.symbols import file_imports
from ctxopt.languages import Chunker, Language, by_name
from ctxopt.types import ChunkedFile, ChunkKind

__all__ = ["CHUNKER_VERSION", "chunk_file", "read_source"]

CHUNKER_VERSION = 30  # bump whenever chunk output changes


def read_source(abs_path: str) -> tuple[str, int]:
    """The file's text (see chunking/decode.py: BOM, coding line, UTF-8, else cp1252) and
    how many characters or bytes could not be read as the file says or as UTF-8."""
    with open(abs_path, "rb") as handle:
        data = handle.read()
    decoded = decode_bytes(data, abs_path)
    return decoded.text, decoded.replaced + decoded.fallback_bytes


def source_lines(
    abs_path: str | os.PathLike[str], max_bytes: int | None = None
) -> list[str] | None:
    """The file's lines as the index numbers them (read as `read_source`, split as
    `chunk_file`); None when it cannot be read or is larger than max_bytes."""
    try:
        if max_bytes is not None and os.stat(abs_path).st_size > max_bytes:
            return None
        return split_lines(read_source(os.fspath(abs_path))[0])
    except OSError:
        return None


def chunk_file(path: str, text: str, language: str, *, timeout_s: float = 5.0) -> ChunkedFile:
    """Chunks of one file; on any parser trouble, line-window chunks and a fallback_reason."""
    if not text.strip():
        return ChunkedFile(chunks=())
    lines = split_lines(text)
    imports: tuple[str, ...] = ()
    reason = ""
    try:
        imports = file_imports(language, text)
        drafts = _drafts(path, language, text, lines, timeout_s)
    except ParseFailure as failure:
        reason, drafts = str(failure), _fallback(path, language, lines)
    except Exception as exc:  # never raise: degrade to line windows
        reason = f"parse_error: {type(exc).__name__}: {exc}"[:200]
        drafts = _fallback(path, language, lines)
    try:
        chunks = build_chunks(path, language, split_long(drafts, lines), lines, imports)
    except Exception as exc:
        reason = f"error: {type(exc).__name__}: {exc}"[:200]
        drafts = _fallback(path, language, lines)
        chunks = build_chunks(path, language, drafts, lines, ())
    return ChunkedFile(chunks=chunks, fallback_reason=reason)


def _drafts(path: str, language: str, text: str, lines: list[str], timeout_s: float) -> list[Draft]:
    record = by_name(language)
    if record is None:
        raise ParseFailure("no_grammar")
    if record.chunker is Chunker.MARKDOWN:
        return markdown_drafts(path, lines)
    if record.chunker is Chunker.CONFIG:
        return config_drafts(path, record.config_keys, lines, text)
    if record.chunker is Chunker.LINES:
        return _fallback(path, language, lines)
    if record.syntax is None:
        raise ParseFailure("no_grammar")
    source = text.encode("utf-8", "replace")
    try:
        tree = parse_source(language, source, timeout_s)
    except ParseFailure as failure:
        if not failure.broken_tree:
            raise
        better = _better_tree(record, language, source, timeout_s, better_than=None)
        if better is not None:  # names and text come from the original: same offsets, lines
            return code_drafts(path, record, lines, better, source)
        retry = by_name(record.retry_as) if record.retry_as else None
        if retry is None:
            raise
        tree = parse_source(retry.name, source, timeout_s)
        return code_drafts(path, retry, lines, tree, source)
    if tree.root_node.has_error:  # broken stretches: a stand-in or second grammar may read them
        tree = _better_tree(record, language, source, timeout_s, better_than=tree) or tree
    return code_drafts(path, record, lines, tree, source)


def _better_tree(
    record: Language, language: str, source: bytes, timeout_s: float, *, better_than: Tree | None
) -> Tree | None:
    """A tree that reads more of the file than `better_than` (fewer unread bytes; any usable
    tree when None), from the source's stand-in (see `repair`) or from the language's second
    grammar; None when neither does."""
    best, unread = better_than, error_bytes(better_than) if better_than is not None else None
    for grammar, version in _readings(record, source):
        try:
            tree = parse_source(language, version, timeout_s, grammar=grammar)
        except ParseFailure:
            continue
        missed = error_bytes(tree)
        if unread is None or missed < unread:
            best, unread = tree, missed
    return best if best is not better_than else None


def _readings(record: Language, source: bytes) -> Iterator[tuple[str | None, bytes]]:
    """Other ways to read a file (a grammar, None for the language's own, and the bytes)."""
    repaired = stand_in(record.grammar or "", source)
    if repaired is not None:
        yield None, repaired
    if record.second_grammar is not None:
        yield record.second_grammar, source


def _fallback(path: str, language: str, lines: list[str]) -> list[Draft]:
    return window_drafts(path, lines, _fallback_kind(by_name(language), lines))


def _fallback_kind(record: Language | None, lines: list[str]) -> ChunkKind:
    chunker = record.chunker if record is not None else None
    if chunker is Chunker.CONFIG:
        return ChunkKind.CONFIG
    if chunker is Chunker.MARKDOWN or (chunker is Chunker.LINES and is_prose(lines)):
        return ChunkKind.DOC
    return ChunkKind.MODULE
