"""Term splitting shared by indexing and querying: compound identifiers into their words.

The index's full-text column and the task's query terms must split names the same way,
so both read the rules here.
"""

from __future__ import annotations

import functools
import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_WORD_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(ident: str) -> list[str]:
    """camelCase / snake_case / dotted words of an identifier, lower-cased."""
    return [w.lower() for w in _WORD_SPLIT.findall(ident)]


def expand_identifiers(text: str) -> str:
    """The sub-words of every compound identifier in text, once each, for full-text search."""
    words: set[str] = set().union(*map(_compound_parts, set(_IDENT.findall(text))))
    return " ".join(sorted(words))


@functools.lru_cache(maxsize=1 << 16)
def _compound_parts(ident: str) -> tuple[str, ...]:
    """The words of a compound identifier longer than one letter; () for a single word.
    Cached: a repository repeats its identifiers in chunk after chunk."""
    parts = split_identifier(ident)
    if len(parts) < 2:
        return ()
    return tuple(part for part in parts if len(part) > 1)


def unspaced(ch: str) -> bool:
    """A character of a script written without spaces: CJK ideographs, hiragana, katakana."""
    return "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def word_count(text: str) -> int:
    """Words as a reader counts them: spaced words, and in Chinese or Japanese, written
    without spaces, about one word per two characters (修复路由错误: three)."""
    count = 0
    for word in text.split():
        unspaced_chars = sum(1 for ch in word if unspaced(ch))
        spaced_part = unspaced_chars < len(word)  # letters or digits beside them: one word
        count += -(-unspaced_chars // 2) + (1 if spaced_part else 0)
    return count
