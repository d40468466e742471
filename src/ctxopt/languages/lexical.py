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


# Each pattern starts with the set of characters a literal can start with, so the regex engine
# skips every other character at C speed; what follows looks back at that first character.
# (A leading alternation of other than single characters, or a leading look-behind, makes it
# try every position: several times slower.)
_STRINGS_C = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
# the rest of a Python string after its first quote: triple-quoted first, as Python reads it
_PY_AFTER_QUOTE = (
    r'(?<=")(?:""[\s\S]*?"""|(?:\\.|[^"\\\n])*")' + r"|(?<=')(?:''[\s\S]*?'''|(?:\\.|[^'\\\n])*')"
)
_PY_STRING = r"""(?:["'](?:""" + _PY_AFTER_QUOTE + "))"
_LITERALS: dict[LexStyle, re.Pattern[str]] = {
    LexStyle.C: re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|" + _STRINGS_C),  # `templates` kept
    LexStyle.RUST: re.compile(r'//[^\n]*|/\*[\s\S]*?\*/|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\\n])\''),
    # `# comment`, a string, or an f-string (after a word boundary f, F, fr, rf... and a string),
    # which is matched whole and kept: its {fields} are code
    LexStyle.PYTHON: re.compile(
        r"""[#"'fFrR](?:(?<=#)[^\n]*"""
        + r"|(?<=[fF])(?<!\w[fF])[rR]?"
        + _PY_STRING
        + r"|(?<=[rR])(?<!\w[rR])[fF]"
        + _PY_STRING
        + "|"
        + _PY_AFTER_QUOTE
        + ")"
    ),
    # `#` at the start of a line or after white space, or a string
    LexStyle.HASH: re.compile(
        r"""[#"'](?:(?<=#)(?<!\S#)[^\n]*"""
        + r'|(?<=")(?:\\.|[^"\\\n])*"'
        + r"|(?<=')(?:\\.|[^'\\\n])*')"
    ),
    LexStyle.PHP: re.compile(r"//[^\n]*|#(?!\[)[^\n]*|/\*[\s\S]*?\*/|" + _STRINGS_C),
}
_F_PREFIX = frozenset("fFrR")


def blank_literals(style: LexStyle, text: str) -> str:
    """text with comments and string literals replaced by a space (f-strings kept)."""
    if style is LexStyle.PYTHON:
        return _LITERALS[style].sub(_keep_fstring, text)
    return _LITERALS[style].sub(" ", text)


def _keep_fstring(match: re.Match[str]) -> str:
    return match.group() if match.group()[0] in _F_PREFIX else " "
