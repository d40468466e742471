"""The test files that go with a source file, found by name (pure).

`termui.py` goes with `test_termui.py`, `command.go` with `command_test.go`, `merge.ts`
with `merge.test.ts` or `test/merge.ts`, `Parser.java` with `ParserTest.java`.  A task
that changes code usually changes or adds its test next to the existing ones, so the
test file of the code a task is about is worth scoring too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from ctxopt.languages.naming import is_test_path, subject_stem


def companion_tests(sources: Iterable[str], paths: Iterable[str]) -> dict[str, list[str]]:
    """For each source file, the test files among paths whose subject is its stem.

    Several matches are ordered by how many folders they share with the source, then by path.
    """
    by_stem = _tests_by_stem(paths)
    found: dict[str, list[str]] = {}
    for source in sources:
        if is_test_path(source):
            continue
        stem = PurePosixPath(source).stem.lower()
        tests = by_stem.get(stem, [])
        if tests:
            found[source] = sorted(tests, key=lambda t: (-_shared_folders(source, t), t))
    return found


_last: list[tuple[object, dict[str, list[str]]]] = []  # the last mapping of paths seen


def _tests_by_stem(paths: Iterable[str]) -> dict[str, list[str]]:
    """The test files among paths by subject stem; kept for the same mapping object (a
    long-lived index reader's file records, asked on every query, never change)."""
    if isinstance(paths, Mapping) and _last and _last[0][0] is paths:
        return _last[0][1]
    by_stem: dict[str, list[str]] = {}
    for path in paths:
        if is_test_path(path):
            by_stem.setdefault(subject_stem(path), []).append(path)
    if isinstance(paths, Mapping):
        _last[:] = [(paths, by_stem)]
    return by_stem


def _shared_folders(a: str, b: str) -> int:
    shared = 0
    for x, y in zip(PurePosixPath(a).parts[:-1], PurePosixPath(b).parts[:-1], strict=False):
        if x != y:
            break
        shared += 1
    return shared
