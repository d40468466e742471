"""A compression step's text is parsed once: `guarded` reads the error counts its parse
recorded, and the counts are those a fresh parse gives (real tree-sitter)."""

from __future__ import annotations

from typing import Any

import pytest

from ctxopt.pack.compress import parsing

GOOD = "def area(w, h):\n    # the area\n    return w * h\n"
BROKEN = "def area(w, h:\n    return w * \n"


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = parsing._parse_with

    def counted(text: str, language: str, wrap: Any) -> parsing.Parsed:
        parsed.append(text)
        return real(text, language, wrap)

    monkeypatch.setattr(parsing, "_parse_with", counted)
    return parsed


def test_guarded_parses_only_the_text_not_parsed_before(monkeypatch: pytest.MonkeyPatch) -> None:
    before = GOOD + "# unique 1\n"
    after = GOOD.replace("    # the area\n", "") + "# unique 1\n"
    parsed = counting(monkeypatch)
    parsing.parse(before, "python")
    assert parsing.guarded(before, after, "python")
    assert parsed == [before, after]


def test_remembered_counts_are_those_of_a_fresh_parse() -> None:
    for text in (GOOD + "# unique 2\n", BROKEN + "# unique 2\n", "    return x\n# unique 2\n"):
        best = parsing.parse_errors(text, "python")
        raw = parsing.raw_parse_errors(text, "python")
        fresh_raw = parsing._parse_with(text, "python", parsing._base(text, "python")).errors
        assert raw == fresh_raw
        assert best == min(
            parsing._parse_with(text, "python", w).errors for w in parsing._wrappers(text, "python")
        )
    assert parsing.raw_parse_errors(BROKEN + "# unique 2\n", "python") > 0
    assert not parsing.guarded(GOOD + "# unique 3\n", BROKEN + "# unique 3\n", "python")
