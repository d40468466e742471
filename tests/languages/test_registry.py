"""The registry of language records: unique names and extensions, lookups, grammars."""

from __future__ import annotations

from collections import Counter

import pytest

from ctxopt.languages import (
    ALL,
    TEXT,
    Chunker,
    by_extension,
    by_name,
    detect_language,
    for_path,
    language_name,
)
from ctxopt.languages.parsers import grammar, parser


def test_no_two_records_share_a_name_an_extension_or_a_file_name() -> None:
    names = Counter(record.name for record in ALL)
    extensions = Counter(ext for record in ALL for ext in record.extensions)
    filenames = Counter(name for record in ALL for name in record.filenames)
    assert [n for n, k in names.items() if k > 1] == []
    assert [e for e, k in extensions.items() if k > 1] == []
    assert [f for f, k in filenames.items() if k > 1] == []


def test_extensions_are_lower_case_with_a_dot() -> None:
    for record in ALL:
        for ext in (*record.extensions, *record.mention_extensions):
            assert ext.startswith(".") and ext == ext.lower(), (record.name, ext)
        assert set(record.mention_extensions) <= set(record.extensions), record.name
        if record.imports is not None:
            assert set(record.imports.module_extensions) <= set(record.extensions), record.name


def test_lookups_by_path_extension_and_name() -> None:
    assert detect_language("src/app/main.py") == "python"
    assert detect_language("include/ring.H") == "c"
    assert detect_language("Gemfile") == "ruby"
    assert detect_language("Makefile") == TEXT.name
    assert detect_language("notes.unknownext") == TEXT.name
    assert for_path("web/App.tsx") is by_name("tsx")
    assert by_extension(".RS") is by_name("rust")
    assert by_extension(".nope") is None
    assert language_name("Python") == "python"
    assert language_name("rs") == "rust"
    assert language_name(".kts") == "kotlin"
    assert language_name("cobol") is None


@pytest.mark.parametrize("record", [r for r in ALL if r.grammar], ids=lambda r: r.name)
def test_grammar_loads_and_names_real_node_kinds(record) -> None:  # type: ignore[no-untyped-def]
    """Each grammar of the record loads; each comment kind is a node kind of one of them (a
    second grammar may name its comments otherwise), and each names the functions."""
    names = [record.grammar, *([record.second_grammar] if record.second_grammar else [])]
    assert all(parser(name) is not None for name in names)
    langs = [grammar(name) for name in names]
    for kind in (*record.comment_kinds, *record.doc_above):
        assert any(lang.id_for_node_kind(kind, True) for lang in langs), (record.name, kind)
    if record.syntax is not None:
        for lang in langs:
            assert any(lang.id_for_node_kind(k, True) for k in record.syntax.functions)


@pytest.mark.parametrize("record", [r for r in ALL if r.grammar], ids=lambda r: r.name)
def test_outline_and_binding_kinds_are_real_node_kinds_of_the_grammar(record) -> None:  # type: ignore[no-untyped-def]
    lang = grammar(record.grammar)
    outline = record.outline
    kinds = [*outline.functions, *outline.scopes, *outline.groups, *outline.docstrings]
    if record.syntax is not None:
        syntax = record.syntax
        kinds += [*syntax.bindings, *syntax.function_values, *syntax.class_values]
        kinds += [*syntax.default_names, *([syntax.binding_name] if syntax.binding_name else [])]
    missing = [kind for kind in kinds if not lang.id_for_node_kind(kind, True)]
    assert missing == [], (record.name, missing)


def test_every_code_record_tells_compression_what_to_outline() -> None:
    for record in ALL:
        if record.chunker is Chunker.CODE:
            assert record.outline.functions, record.name


def test_code_records_have_declarations_and_a_grammar() -> None:
    for record in ALL:
        if record.chunker is Chunker.CODE:
            assert record.syntax is not None and record.grammar, record.name
        if record.retry_as is not None:
            retry = by_name(record.retry_as)
            assert retry is not None and retry.syntax is not None, record.name
