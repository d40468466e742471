"""The one cache of tree-sitter grammars and parsers (tree-sitter-language-pack)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language as Grammar
    from tree_sitter import Parser


@cache
def grammar(name: str) -> Grammar:
    """The tree-sitter grammar of a language-pack name (raises when it has none)."""
    from tree_sitter_language_pack import get_language

    return get_language(name)  # type: ignore[arg-type]


@cache
def parser(name: str) -> Parser | None:
    """A parser for a language-pack grammar name, built once; None when there is none."""
    try:
        from tree_sitter_language_pack import get_parser

        return get_parser(name)  # type: ignore[arg-type]
    except Exception:
        return None
