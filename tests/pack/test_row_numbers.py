"""Matching a compressed chunk's rows back to the rows it was indexed from."""

from __future__ import annotations

from ctxopt.pack.compress import compress
from ctxopt.pack.row_numbers import shown_rows

SOURCE = """def area(shape):
    # plain comment, dropped by light compression
    if shape.kind == "circle":  # trailing comment
        return 3.14 * shape.r ** 2

    return shape.w * shape.h
"""


def test_light_compression_rows_map_to_their_original_rows():
    shown = compress(SOURCE, "python", "light")
    assert "plain comment" not in shown and "trailing comment" not in shown
    rows = shown_rows(SOURCE, shown)
    assert rows is not None
    original = SOURCE.split("\n")
    for row, text in zip(rows, shown.split("\n"), strict=True):
        assert original[row].startswith(text) or original[row].strip() == text.strip()
    assert rows[:3] == (0, 2, 3)


def test_medium_compression_rows_map_despite_new_indentation():
    shown = compress(SOURCE, "python", "medium")
    rows = shown_rows(SOURCE, shown)
    assert rows == (0, 2, 3, 5, 6)  # the last is the empty row after the final newline


def test_a_row_that_is_not_in_the_original_gives_no_rows():
    assert shown_rows(SOURCE, "def area(shape):\n    return 0") is None
    assert shown_rows("a = 1  + 2", "a = 1") is None  # a cut that is not a comment


def test_a_marker_row_stands_for_no_row():
    shown = "def area(shape):\n    # ... lines 2-4 elided\n    return shape.w * shape.h"
    assert shown_rows(SOURCE, shown) == (0, None, 5)


def test_a_row_after_a_marker_is_found_after_the_rows_it_stands_for():
    """An excerpt of lines 13-14 of a method starting at line 7: its `}` is line 13's, not
    line 10's (until 2026-12-02 `--line-numbers` numbered it 10 and the rows after it wrong)."""
    method = "\n".join(
        ["run() {", "  if (a) {", "    b();", "  }", "  if (c) {", "    d();", "  }", "  e();", "}"]
    )
    shown = "run() {\n  // ... lines 8-12 elided\n  }\n  e();\n  // ... line 15 elided"
    assert shown_rows(method, shown, start_line=7) == (0, None, 6, 7, None)
