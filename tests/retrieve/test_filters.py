"""--lang and --kind values: names, extensions and any case; unknown ones refused."""

from __future__ import annotations

import pytest

from ctxopt.errors import UsageError
from ctxopt.retrieve.filters import checked_kinds, checked_languages


def test_languages_by_name_or_extension_in_any_case() -> None:
    assert checked_languages(["Python", "py", ".rs", "TSX", "markdown"]) == (
        "python",
        "rust",
        "tsx",
        "markdown",
    )
    assert checked_languages([]) == ()


def test_an_unknown_language_is_a_usage_error_listing_the_names() -> None:
    with pytest.raises(UsageError, match=r"--lang 'klingon' is not a language.*python, ruby"):
        checked_languages(["python", "klingon"])


def test_kinds_in_any_case_and_unknown_ones_refused() -> None:
    assert checked_kinds(["Function", "method", "function"]) == ("function", "method")
    with pytest.raises(UsageError, match=r"--kind 'funtion' is not a chunk kind.*function"):
        checked_kinds(["funtion"])
