"""Chunk boundaries and kinds of each fixtures/languages sample (lines checked by hand)."""

from __future__ import annotations

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.types import ChunkKind
from tests.chunking.conftest import by_name, chunk_fixture, many_methods

# (file, kind, qualified_name, start_line, end_line)
EXPECTED = [
    ("sample.py", "module", "sample", 1, 11),
    ("sample.py", "class", "Level", 14, 20),
    ("sample.py", "class", "OrderBook", 23, 53),
    ("sample.py", "function", "spread", 56, 61),
    ("sample.py", "test", "test_spread_of_empty_book", 73, 74),
    ("sample.js", "class", "Bus", 8, 30),
    ("sample.js", "function", "retry", 32, 45),
    ("sample.js", "function", "joinLog", 47, 47),
    ("sample.js", "function", "writeLog", 49, 51),
    ("sample.ts", "interface", "ClientOptions", 6, 11),
    ("sample.ts", "type", "Method", 13, 13),
    ("sample.ts", "type", "Status", 15, 18),
    ("sample.ts", "class", "HttpClient", 20, 49),
    ("sample.ts", "function", "loadConfig", 60, 63),
    ("sample.tsx", "interface", "PriceListProps", 4, 8),
    ("sample.tsx", "function", "PriceList", 12, 31),
    ("sample.tsx", "class", "Counter", 33, 43),
    ("sample.go", "interface", "Store", 16, 20),
    ("sample.go", "class", "Cache", 28, 33),
    ("sample.go", "function", "New", 35, 41),
    ("sample.go", "method", "Cache.Get", 43, 52),
    ("sample.go", "method", "Cache.Purge", 61, 73),
    ("sample.go", "test", "TestNewUsesDefaultTTL", 75, 79),
    ("sample.rs", "type", "Token", 9, 15),
    ("sample.rs", "class", "Lexer", 17, 22),
    ("sample.rs", "interface", "Describe", 24, 27),
    ("sample.rs", "function", "count_tokens", 58, 66),
    ("sample.rs", "test", "tests.counts_digits_as_one_token", 72, 75),
    ("Sample.java", "class", "Sample", 7, 41),
    ("Sample.java", "interface", "Pricer", 43, 46),
    ("Sample.java", "test", "SampleTest", 48, 53),
    ("sample.c", "class", "Ring", 8, 14),
    ("sample.c", "function", "ring_new", 18, 29),
    ("sample.c", "function", "ring_free", 51, 56),
    ("sample.cpp", "class", "geo.Point", 11, 15),
    ("sample.cpp", "class", "geo.Polygon", 17, 41),
    ("sample.cpp", "method", "geo.Polygon.name", 43, 45),
    ("sample.cpp", "function", "geo.clamp", 47, 53),
    ("Sample.cs", "class", "Fixtures.Billing.Line", 7, 8),
    ("Sample.cs", "interface", "Fixtures.Billing.ITaxPolicy", 10, 14),
    ("Sample.cs", "class", "Fixtures.Billing.Invoice", 16, 51),
    ("Sample.cs", "test", "Fixtures.Billing.InvoiceTests", 53, 60),
    ("sample.rb", "class", "Shipping", 8, 46),
    ("sample.rb", "test", "test_free_shipping", 48, 51),
    ("sample.php", "interface", "Sender", 12, 18),
    ("sample.php", "class", "Mailer", 20, 57),
    ("sample.php", "function", "format_subject", 59, 62),
    ("Sample.kt", "class", "Note", 8, 9),
    ("Sample.kt", "interface", "NoteRepository", 11, 15),
    ("Sample.kt", "class", "InMemoryNotes", 17, 40),
    ("Sample.kt", "function", "summarize", 42, 45),
    ("Sample.kt", "test", "NotesTest", 47, 53),
    ("Sample.swift", "type", "DownloadState", 6, 12),
    ("Sample.swift", "interface", "DownloadDelegate", 14, 18),
    ("Sample.swift", "class", "Downloader", 20, 45),
    ("Sample.swift", "function", "humanSize", 55, 57),
    ("Sample.scala", "class", "Summary", 6, 7),
    ("Sample.scala", "interface", "Summarizable", 9, 12),
    ("Sample.scala", "class", "Accumulator", 14, 32),
    ("Sample.scala", "class", "Stats", 34, 45),
    ("Sample.scala", "function", "percent", 47, 48),
    ("sample.sh", "function", "log", 10, 13),
    ("sample.sh", "function", "backup_dir", 15, 26),
    ("sample.sh", "function", "main", 33, 38),
    ("README.md", "doc", "Fixture Project > Installation", 6, 19),
    ("README.md", "doc", "Fixture Project > Usage > Options", 29, 33),
    ("config.yaml", "config", "config.yaml", 1, 42),
    ("package.json", "config", "package.json", 1, 41),
    ("settings.toml", "config", "settings.toml", 1, 40),
]


@pytest.mark.parametrize(("name", "kind", "qualified", "start", "end"), EXPECTED)
def test_chunk_boundaries_and_kinds(name: str, kind: str, qualified: str, start: int, end: int):
    result = chunk_fixture(name)
    assert result.fallback_reason == ""
    chunk = by_name(result.chunks, qualified, kind)
    assert (chunk.kind.value, chunk.start_line, chunk.end_line) == (kind, start, end)


IMPORTS = {
    "sample.py": ("__future__", "json", "os.path", "collections", "dataclasses"),
    "sample.js": ("events", "path", "./fs-extra"),
    "sample.ts": ("fs/promises", "./logger"),
    "sample.tsx": ("react", "./format"),
    "sample.go": ("errors", "sync", "time"),
    "sample.rs": ("std::collections::HashMap", "std::fmt", "super"),
    "Sample.java": ("java.util.ArrayList", "java.util.List", "java.util.Objects.requireNonNull"),
    "sample.c": ("stdlib.h", "string.h", "ring.h"),
    "sample.cpp": ("cmath", "string", "vector", "shape.hpp"),
    "Sample.cs": ("System", "System.Collections.Generic", "System.Linq"),
    "sample.rb": ("json", "carriers/base"),
    "sample.php": ("App\\Models\\User", "Psr\\Log\\LoggerInterface", "/helpers.php"),
    "Sample.kt": ("java.time.Instant", "kotlin.collections.mutableListOf"),
    "Sample.swift": ("Foundation", "os.log"),
    "Sample.scala": ("scala.collection.mutable", "scala.math"),
    "sample.sh": ("./lib/common.sh",),
}


@pytest.mark.parametrize("name", sorted(IMPORTS))
def test_file_imports_on_every_chunk(name: str):
    chunks = chunk_fixture(name).chunks
    assert {c.imports for c in chunks} == {IMPORTS[name]}


def test_python_details():
    chunks = chunk_fixture("sample.py").chunks
    book = by_name(chunks, "OrderBook")
    assert book.docstring.startswith("A price-ordered book of bids and asks.")
    assert book.defines == (
        "OrderBook",
        "OrderBook.__init__",
        "OrderBook.add",
        "OrderBook.best",
        "OrderBook._trim",
    )
    spread = by_name(chunks, "spread")
    assert spread.signature == "def spread(book: OrderBook) -> float | None"
    assert spread.docstring == "Difference between best ask and best bid."
    assert spread.complexity == 3  # if + or
    assert "OrderBook" not in spread.references or "best" in spread.references
    assert "if" not in spread.references and "spread" not in spread.references
    module = chunks[0]
    assert module.kind.value == "module" and module.defines == ("MAX_LEVELS", "DEFAULT_TICK")


def test_doc_comments_become_docstrings():
    go = chunk_fixture("sample.go").chunks
    assert by_name(go, "Cache.Get").docstring == "Get returns the value for key or ErrMissing."
    rs = chunk_fixture("sample.rs").chunks
    assert by_name(rs, "count_tokens").docstring == "Count the tokens in `input`."
    java = chunk_fixture("Sample.java").chunks
    assert by_name(java, "Sample", "class").docstring == "A shopping cart holding line items."
    cs = chunk_fixture("Sample.cs").chunks
    assert (
        by_name(cs, "Fixtures.Billing.Invoice").docstring
        == "An invoice with lines and a tax policy."
    )


def test_constants_live_in_module_chunks():
    for name, constant in [
        ("sample.py", "MAX_LEVELS"),
        ("sample.js", "MAX_RETRIES"),
        ("sample.ts", "DEFAULT_TIMEOUT_MS"),
        ("sample.go", "DefaultTTL"),
        ("sample.rs", "MAX_TOKEN_LEN"),
        ("sample.c", "RING_DEFAULT_CAP"),
    ]:
        chunks = chunk_fixture(name).chunks
        holders = [c for c in chunks if constant in c.defines]
        assert [c.kind.value for c in holders] == ["module"], name
        assert not [c for c in chunks if c.kind.value == "constant"]


def test_rust_impl_methods_get_the_type_as_parent_when_split():
    rs = chunk_fixture("sample.rs").chunks
    impls = [c for c in rs if c.qualified_name == "Lexer" and c.signature.startswith("impl")]
    assert impls and impls[0].defines == ("Lexer", "Lexer.new", "Lexer.next_token")


SCRIPT_IMPORTS = """import React from 'react';
import { a, b } from "./local/ab";
const fs = require('fs'); const path = require("path")
/* from 'not-an-import-start' in a comment still matches the pattern */
export * from './reexported';
const later = await import('./lazy/module');
let imported = 1; // the word import with no string
import './side-effect.css'
const s = "from"; const t = 'import';
  import   x   from   "spaced"
const last = require('at-the-end-without-newline')"""


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
def test_script_imports_from_their_lines_equal_a_scan_of_the_whole_text(language: str):
    """Only lines holding `from`, `import` or `require` are searched; the imports found,
    and their order, are what a scan of the whole text finds."""
    from ctxopt.chunking.symbols import _split_import, file_imports
    from ctxopt.languages import by_name as language_named

    record = language_named(language)
    assert record is not None and record.imports is not None
    rules = record.imports
    assert rules.line_words
    for text in (SCRIPT_IMPORTS, SCRIPT_IMPORTS + "\n", "\n\n" + SCRIPT_IMPORTS, "", "from"):
        hits = sorted(
            (m.start(), item)
            for pattern in rules.patterns
            for m in pattern.finditer(text)
            for item in _split_import(rules.split, m.group(1))
        )
        assert file_imports(language, text) == tuple(dict.fromkeys(i for _, i in hits))
    assert file_imports(language, SCRIPT_IMPORTS)[:3] == ("react", "./local/ab", "fs")
    assert "at-the-end-without-newline" in file_imports(language, SCRIPT_IMPORTS)


def test_kotlin_object_with_delegation_is_chunked_by_definitions() -> None:
    """Objects that delegate (`object : Call<String> by call { ... }`), one inside another, made
    the file one ERROR node with the language pack's Kotlin grammar, so it fell back to line
    chunks (retrofit's `KotlinSuspendTest.kt`); the newer grammar of tree-sitter-kotlin reads
    them."""
    text = (
        "package retrofit2\n\n"
        "class Adapters {\n"
        "  /** Repeats every call. */\n"
        "  fun adapt(call: Call<String>): Call<String> {\n"
        "    return object : Call<String> by call {\n"
        "      override fun enqueue(callback: Callback<String>) {\n"
        "        call.enqueue(object : Callback<String> by callback {\n"
        "          override fun onResponse(call: Call<String>) {\n"
        "            callback.onResponse(call)\n"
        "          }\n"
        "        })\n"
        "      }\n"
        "    }\n"
        "  }\n\n"
        "  fun plain(): Int = 1\n"
        "}\n"
    )
    result = chunk_file("Adapters.kt", text, "kotlin")
    assert result.fallback_reason == ""
    adapters = next(c for c in result.chunks if c.kind is ChunkKind.CLASS)
    assert (adapters.qualified_name, adapters.start_line, adapters.end_line) == ("Adapters", 3, 18)
    assert {"Adapters.adapt", "Adapters.plain"} <= set(adapters.defines)


def test_kotlin_shapes_the_newer_grammar_misreads_are_read_by_the_second() -> None:
    """tree-sitter-kotlin 1.x reads a nested `class Options` with `private constructor(` on the
    next line as ERROR to the end of its file (moshi's `JsonReader.kt`); the language pack's
    grammar, tried second, reads it, so the classes and their methods are still chunks."""
    methods = many_methods(
        "  /** Step {i}. */\n  public fun step{i}(x: Int): Int {{\n",
        '    val v{j} = mix(x, {j}, "step {i} part {j}")\n',
        "    return x\n  }\n\n",
        lines=25,
    )
    text = (
        "package okio\n\n"
        "public sealed class JsonReader : Closeable {\n" + methods + "  public class Options\n"
        "  private constructor(\n"
        "    internal val strings: Array<out String>,\n"
        "  ) {\n"
        "    public fun strings(): List<String> = strings.toList()\n"
        "  }\n"
        "}\n"
    )
    result = chunk_file("JsonReader.kt", text, "kotlin")
    assert result.fallback_reason == ""
    names = [c.qualified_name for c in result.chunks if c.kind is ChunkKind.METHOD]
    assert names[:4] == [f"JsonReader.step{i}" for i in range(4)]
    assert "JsonReader.Options" in [c.qualified_name for c in result.chunks]
