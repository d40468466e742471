"""The one cache of tree-sitter grammars and parsers.

Grammars come from tree-sitter-language-pack by its names ("python"), or from a
single-language wheel by its module's name ("tree_sitter_kotlin"), where that wheel ships a
newer grammar that reads current syntax the pack's cannot.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language as Grammar
    from tree_sitter import Parser

_WHEEL_PREFIX = "tree_sitter_"  # a grammar name that is the module of its own wheel


@cache
def grammar(name: str) -> Grammar:
    """The tree-sitter grammar of a grammar name (raises when it has none)."""
    if name.startswith(_WHEEL_PREFIX):
        from tree_sitter import Language

        return Language(import_module(name).language())
    from tree_sitter_language_pack import get_language

    return get_language(name)  # type: ignore[arg-type]


@cache
def parser(name: str) -> Parser | None:
    """A parser for a grammar name, built once; None when there is none."""
    try:
        if name.startswith(_WHEEL_PREFIX):
            from tree_sitter import Parser

            return Parser(grammar(name))
        from tree_sitter_language_pack import get_parser

        return get_parser(name)  # type: ignore[arg-type]
    except Exception:
        return None
