"""Small helpers for the wording of messages people read (CLI and library notices)."""

from __future__ import annotations

import math
import re

# How every prompt ctxopt renders begins (its first lines, in every format): the words say
# what the reader gets, and indexing knows its own output by them (a prompt saved inside the
# repository is skipped as generated, not indexed as more copies of the code).
PROMPT_HEADER_START = "Context for this task: a selected subset of the repository"


def plural(count: int, noun: str) -> str:
    """The count with thousands separators and the noun, with an "s" unless the count is one:
    "1 file", "0 files", "2,345 files" (enough for the regular nouns ctxopt uses)."""
    return f"{count:,} {noun if count == 1 else noun + 's'}"


def line_span(first: int, last: int) -> str:
    """A range of lines as a reader cites it: "12-20", or "90" for one line (not "90-90")."""
    return str(first) if first == last else f"{first}-{last}"


def lines_words(spans: str, single: bool) -> str:
    """ "lines 12-20, 31-40", or "line 90" for a single line."""
    return f"line {spans}" if single else f"lines {spans}"


def percent(value: float) -> str:
    """A share in percent to one decimal, never rounded up to a whole it did not reach:
    99.95 is "99.9%", not "100.0%" (a pack that kept something is not 100% smaller)."""
    shown = math.floor(value * 10) / 10 if 0 <= value < 100 else value
    return f"{shown:.1f}%"


def byte_size(count: int) -> str:
    """A size in bytes at a scale a reader takes in, in decimal units as disks are sold:
    "512 bytes", "28.4 KB", "3.1 MB", "1.2 GB" (a small index is not "0.0 MB")."""
    if count < 1000:
        return plural(count, "byte")
    for unit, scale in (("KB", 1e3), ("MB", 1e6)):
        if count < 999.95 * scale:  # what would round up to 1000.0 takes the next unit
            return f"{count / scale:.1f} {unit}"
    return f"{count / 1e9:,.1f} GB"


_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def shown_path(path: str) -> str:
    """A path as one line a reader can trust: as it is, unless it holds a line break or another
    control character; then quoted with escapes, as git quotes such names: `"we\\nird.py"`."""
    if not _UNPRINTABLE.search(path):
        return path
    quoted = _UNPRINTABLE.sub(_escape, path.replace("\\", "\\\\").replace('"', '\\"'))
    return f'"{quoted}"'


def _escape(found: re.Match[str]) -> str:
    char = found.group(0)
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return named.get(char) or f"\\u{ord(char):04x}"
