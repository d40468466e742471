"""Syntax-aware compression of chunk text at four levels, done with tree-sitter.

- none: the text unchanged.
- light: comments dropped; docstrings and doc comments (``/** */``, ``///``, ``//!``,
  ``/*!``, and Go/Ruby comment blocks directly above a declaration) kept.
- medium: light, then blank lines and trailing whitespace dropped and indentation
  re-ranked to one space a level (a strictly increasing map of the original widths,
  so Python and Scala 3 nesting is unchanged; YAML keeps its indentation).  Lines that
  begin or end inside a string literal are never changed.
- aggressive: signatures, docstrings and the key lines of bodies (exits, control-flow
  headers, top-level calls) kept, each run of elided lines replaced by one marker
  comment naming the original line range; then medium.  A marker that would be a
  Python block's whole body follows ``...`` so the block still parses; a chunk of plain
  statements (no definitions) that would lose over 90% of its lines keeps its
  declarations and trims only long statements instead.

Compression never raises: light and medium output is re-parsed and, if it holds
more ERROR/MISSING nodes than the input, the input is returned instead.

Modules: ``parsing`` (parsers, fragment wrappers, error counts), ``comments`` (light),
``layout`` (medium), ``kinds`` and ``elide`` (aggressive and signature stubs),
``markers`` (the elision marker).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from ctxopt import tokens
from ctxopt.languages import CONFIG_LANGUAGES, GRAMMAR_LANGUAGES
from ctxopt.pack.compress.comments import light
from ctxopt.pack.compress.elide import aggressive, head_stub, signatures_only
from ctxopt.pack.compress.layout import medium, plain_medium
from ctxopt.pack.compress.markers import marker
from ctxopt.pack.compress.parsing import parse_errors, raw_parse_errors

__all__ = [
    "GRAMMAR_LANGUAGES",
    "LEVELS",
    "Level",
    "compress",
    "marker",
    "parse_errors",
    "raw_parse_errors",
    "reduction_report",
    "signature_stub",
]

Level = Literal["none", "light", "medium", "aggressive"]
LEVELS: tuple[Level, ...] = ("none", "light", "medium", "aggressive")


def compress(text: str, language: str, level: Level, *, start_line: int = 1) -> str:
    """Text compressed at a level; never raises (the input is returned on failure)."""
    if level == "none" or not text:
        return text
    try:
        if language not in GRAMMAR_LANGUAGES:
            return text if level == "light" else plain_medium(text)
        text.encode("utf-8")
        if level == "light":
            return light(text, language)
        if level == "medium" or language in CONFIG_LANGUAGES:
            return medium(text, language)
        return aggressive(text, language, start_line=start_line)
    except Exception:
        return text


def signature_stub(text: str, language: str, *, start_line: int = 1) -> str:
    """Signatures and docstrings/doc comments only; each body replaced by an elision marker.
    Never more tokens than the text: a chunk too short to gain from it (a three-line
    struct, whose marker outweighs its body) is returned whole."""
    if not text.strip():
        return text
    try:
        if language not in GRAMMAR_LANGUAGES or language in CONFIG_LANGUAGES:
            stub = head_stub(text, language, start_line)
        else:
            stub = signatures_only(text, language, start_line=start_line)
    except Exception:
        stub = head_stub(text, language, start_line)
    return text if tokens.count(stub) >= tokens.count(text) else stub


def reduction_report(samples: Iterable[tuple[str, str]]) -> dict[str, float]:
    """Per level, the % of cl100k tokens removed over (text, language) samples."""
    totals = dict.fromkeys(LEVELS, 0)
    for text, language in samples:
        for level in LEVELS:
            totals[level] += tokens.count(compress(text, language, level))
    base = totals["none"] or 1
    return {level: round(100.0 * (1 - totals[level] / base), 2) for level in LEVELS}
