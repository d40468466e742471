"""How comments and string literals are written, to blank them out of code (regex-based)."""

from __future__ import annotations

import re
from enum import Enum


class LexStyle(Enum):
    """How comments and string literals are written."""

    C = "c"  # `//`, `/* */`, "..." and '...'
    RUST = "rust"  # C comments, multi-line "..." strings, 'c' char literals
    PYTHON = "python"  # `#` comments, triple-quoted strings, f-strings kept
    HASH = "hash"  # `#` comments after whitespace
    PHP = "php"  # C comments and `#` (not `#[`)


_M = re.MULTILINE
_STRINGS_C = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
_LITERALS: dict[LexStyle, re.Pattern[str]] = {
    LexStyle.C: re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|" + _STRINGS_C),  # `templates` kept
    LexStyle.RUST: re.compile(r'//[^\n]*|/\*[\s\S]*?\*/|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\\n])\''),
    LexStyle.PYTHON: re.compile(  # an f-string is matched whole (and kept: its {fields} are code)
        r"#[^\n]*|(?P<f>\b[fF][rR]?|\b[rR][fF])?(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"
        + _STRINGS_C
        + ")"
    ),
    LexStyle.HASH: re.compile(r"(?:^|(?<=\s))#[^\n]*|" + _STRINGS_C, _M),
    LexStyle.PHP: re.compile(r"//[^\n]*|#(?!\[)[^\n]*|/\*[\s\S]*?\*/|" + _STRINGS_C),
}


def blank_literals(style: LexStyle, text: str) -> str:
    """text with comments and string literals replaced by a space (f-strings kept)."""
    if style is LexStyle.PYTHON:
        return _LITERALS[style].sub(_keep_fstring, text)
    return _LITERALS[style].sub(" ", text)


def _keep_fstring(match: re.Match[str]) -> str:
    return match.group() if match.group("f") else " "
