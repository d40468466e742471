"""How ctxopt numbers a file's lines: as git, grep, sed and editors do.

A line ends at ``\\n`` (a ``\\r`` before it belongs to the break); no other character
starts a line. Python's ``str.splitlines`` also breaks at ``\\r``, form feed, ``\\x1c``-
``\\x1e``, ``\\x85`` and U+2028/U+2029, which would number a file with a form feed
differently from the diff and the editor a user reads it in.
"""

from __future__ import annotations

__all__ = ["split_lines"]


def split_lines(text: str) -> list[str]:
    """The text's lines, without their ends (``\\n`` or ``\\r\\n``); none for empty text."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return lines
