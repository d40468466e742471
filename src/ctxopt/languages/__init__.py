"""One record per language: extensions, grammar, node kinds, comments, imports, test naming.

The lowest layer: it imports no other ctxopt stage.  Adding a language means adding one
record to a family module (and listing it in that module's LANGUAGES) plus a sample file
in fixtures/languages/.

Modules: ``record`` (the record's shape), ``script``, ``web``, ``systems``, ``managed``
and ``data`` (the records, by family), ``registry`` (all records and the lookups),
``parsers`` (the one cache of tree-sitter parsers), ``naming`` (test and doc file
naming rules), ``nodes`` (node kinds shared across grammars), ``lexical`` (comment and
string syntax, to blank them out of code), ``keywords`` (reserved words).
"""

from __future__ import annotations

from ctxopt.languages.lexical import LexStyle
from ctxopt.languages.record import (
    Chunker,
    ConfigKeys,
    DocStyle,
    Family,
    Fragments,
    Imports,
    ImportSplit,
    Language,
    Outline,
    Quirk,
    Syntax,
)
from ctxopt.languages.registry import (
    ALL,
    CONFIG_LANGUAGES,
    GRAMMAR_LANGUAGES,
    KNOWN_LANGUAGES,
    TEXT,
    by_extension,
    by_name,
    detect_language,
    for_path,
    is_special_filename,
    language_name,
    named_in_task,
)

__all__ = [
    "ALL",
    "CONFIG_LANGUAGES",
    "GRAMMAR_LANGUAGES",
    "KNOWN_LANGUAGES",
    "TEXT",
    "Chunker",
    "ConfigKeys",
    "DocStyle",
    "Family",
    "Fragments",
    "ImportSplit",
    "Imports",
    "Language",
    "LexStyle",
    "Outline",
    "Quirk",
    "Syntax",
    "by_extension",
    "by_name",
    "detect_language",
    "for_path",
    "is_special_filename",
    "language_name",
    "named_in_task",
]
