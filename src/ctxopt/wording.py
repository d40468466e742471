"""Small helpers for the wording of messages people read (CLI and library notices)."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """The count with thousands separators and the noun, with an "s" unless the count is one:
    "1 file", "0 files", "2,345 files" (enough for the regular nouns ctxopt uses)."""
    return f"{count:,} {noun if count == 1 else noun + 's'}"
