"""Naming rules: test files by path, test functions and classes by name, doc files."""

from __future__ import annotations

import pytest

from ctxopt.languages.naming import (
    has_test_mark,
    is_doc_path,
    is_test_class_name,
    is_test_function_name,
    is_test_path,
    subject_stem,
)


@pytest.mark.parametrize(
    "path",
    [
        "tests/test_core.py",
        "test_core.py",
        "pkg/test/helpers.py",
        "src/__tests__/merge.js",
        "command_test.go",
        "source/merge.test.ts",
        "source/merge.spec.tsx",
        "lib/merge.test.mjs",
        "src/test/java/ParserTest.java",
        "app/NotesTests.kt",
        "Billing/InvoiceTests.cs",
        "core/ParserSpec.scala",
        "Sources/CounterTests.swift",
        "spec/models/user_spec.rb",
    ],
)
def test_test_files_are_found_by_name(path: str) -> None:
    assert is_test_path(path)


@pytest.mark.parametrize(
    "path",
    ["src/contest.py", "src/core.py", "merge.ts", "Parser.java", "latest.rb", "testing.md"],
)
def test_other_files_are_not_tests(path: str) -> None:
    assert not is_test_path(path)


def test_test_symbols_by_name_and_mark() -> None:
    assert is_test_function_name("test_parse")
    assert is_test_function_name("TestParse")
    assert not is_test_function_name("testify")
    assert is_test_class_name("ParserTests")
    assert not is_test_class_name("Contest")
    assert has_test_mark("#[test]\nfn counts() {")
    assert has_test_mark("    [Fact]\n    public void Adds()")
    assert not has_test_mark("#[derive(Debug)]")


def test_subject_stems_drop_test_affixes() -> None:
    assert subject_stem("tests/test_termui.py") == "termui"
    assert subject_stem("command_test.go") == "command"
    assert subject_stem("source/utils/merge.test.ts") == "merge"
    assert subject_stem("src/test/java/ParserTest.java") == "parser"
    assert subject_stem("tests/test_latest.py") == "latest"  # not "la"
    assert subject_stem("src/contest.py") == "contest"
    assert subject_stem("tests/test_utils_test.py") == "utils"


def test_doc_paths() -> None:
    assert is_doc_path("docs/README.md")
    assert not is_doc_path("src/readme.py")
