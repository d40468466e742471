"""Naming rules: what a file's path or a symbol's name says about it (a test, a doc).

Test files are found by folder (`tests/`, `spec/`...) for every language, by a `_test`
suffix for every language (Go's rule, met elsewhere too), and by each language's own
rules (`test_x.py`, `x.test.ts`, `XTest.java`, `x_spec.rb`) from its record.
"""

from __future__ import annotations

import functools
import re
from pathlib import PurePosixPath

from ctxopt.languages.registry import ALL

_ANY_LANGUAGE = (
    r"(?:^|/)(?:tests?|spec|specs|__tests__|testing)/",
    r"_test\.\w+$",
)
_TEST_FILE = re.compile(
    "|".join(
        dict.fromkeys(
            [*_ANY_LANGUAGE, *(p for language in ALL for p in language.test_file_patterns)]
        )
    )
)
_TEST_NAME = re.compile(r"^(?:test_|Test[A-Z_0-9]|test[A-Z0-9])")
_TEST_CLASS = re.compile(r"^Test[A-Z_0-9]|Tests?$|Spec$")
_TEST_MARK = re.compile(r"#\[(?:\w+::)?test\]|@Test\b|\[(?:Test|Fact|Theory|TestMethod)\b")
_STEM_PREFIX = re.compile(r"^[Tt]ests?_")
_STEM_SUFFIX = re.compile(r"(?:_tests?|\.test|\.spec|_spec|(?<=[a-z0-9])(?:Tests?|Spec))$")


@functools.lru_cache(maxsize=1 << 16)  # asked of every indexed path on each query
def is_test_path(path: str) -> bool:
    """True when a repo-relative path names a test file."""
    return bool(_TEST_FILE.search(path))


def is_test_function_name(name: str) -> bool:
    """`test_x`, `TestX`, `testX`: a function named as a test."""
    return bool(_TEST_NAME.match(name))


def is_test_class_name(name: str) -> bool:
    """`TestX`, `XTest`, `XTests`, `XSpec`: a class named as a test suite."""
    return bool(_TEST_CLASS.search(name))


def has_test_mark(head: str) -> bool:
    """The lines above a declaration mark it as a test (`#[test]`, `@Test`, `[Fact]`)."""
    return bool(_TEST_MARK.search(head))


@functools.lru_cache(maxsize=1 << 16)
def subject_stem(path: str) -> str:
    """The file's stem without one test prefix and one test suffix, lower-cased: the name
    of what it is about (`test_latest.py` is about `latest`, `ParserTest.java` about
    `parser`; `contest.py` keeps its name)."""
    return _STEM_SUFFIX.sub("", _STEM_PREFIX.sub("", PurePosixPath(path).stem)).lower()


def is_doc_path(path: str) -> bool:
    """The path names a documentation file (`README.md`: Markdown by its short extension)."""
    return path.endswith(".md")
