"""The elision marker: the one-line comment that stands for left-out original lines, in
each language's comment syntax; compression writes it, `pack --json` reads it back."""

from __future__ import annotations

import re

from ctxopt.languages.registry import by_name

_MARKER_WORDS = (" ... line ", " ... lines ")
_RANGE = re.compile(r" \.\.\. lines? (\d+)(?:-(\d+))? elided")


def _comment_pair(language: str) -> tuple[str, str]:
    record = by_name(language)
    return record.marker_comment if record is not None else ("", "")


def marker(first: int, last: int, language: str, indent: str = "") -> str:
    """The comment that stands for elided original lines first..last (1-based).

    indent is put before the comment as given (it may end in a statement such as ``... ``).
    """
    opener, closer = _comment_pair(language)
    what = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"{indent}{opener}... {what} elided{closer}"


def is_marker(body: bytes) -> bool:
    """True when a comment's text is an elision marker (light keeps those)."""
    text = body.decode("utf-8", "replace")
    return text.rstrip(" */").endswith(" elided") and any(w in text for w in _MARKER_WORDS)


def marker_range(line: str) -> tuple[int, int] | None:
    """The original lines (first, last) a marker line stands for; None for any other line."""
    if not is_marker(line.encode("utf-8", "replace")):
        return None
    found = _RANGE.search(line)
    if found is None:
        return None
    first = int(found.group(1))
    return first, int(found.group(2) or first)


def elided_ranges(text: str) -> list[tuple[int, int]]:
    """The original lines (first, last) of each marker in text, in order."""
    found = (marker_range(line) for line in text.split("\n"))
    return [named for named in found if named is not None]
