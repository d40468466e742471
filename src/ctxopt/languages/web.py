"""JavaScript, TypeScript and TSX: one syntax family, three grammars."""

from __future__ import annotations

import re
from dataclasses import replace

from ctxopt.languages.record import (
    Chunker,
    DocStyle,
    Family,
    Fragments,
    Imports,
    Language,
    Outline,
    Quirk,
    Syntax,
)

_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
        "function_signature",
        "method_signature",
        "abstract_method_signature",
    }
)
_JS_CLASSES = {
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
}
_TS_CLASSES = {**_JS_CLASSES, "interface_declaration": "interface", "enum_declaration": "type"}
_TS_TYPES = {"type_alias_declaration": "type"}
_WRAPPERS = frozenset({"export_statement", "ambient_declaration"})
_NAMESPACES = frozenset({"internal_module", "module"})
_QUIRKS = frozenset({Quirk.VARIABLE_FUNCTIONS})
# `const f = () => {}` and `const C = class {}` declare a function and a class.
_BINDINGS = frozenset({"lexical_declaration", "variable_declaration"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})
_CLASS_VALUES = frozenset({"class"})
# Test-framework calls whose top-level statements become test chunks.
_TEST_CALLS = frozenset({"describe", "it", "test", "context", "suite"})

_IMPORT = re.compile(
    r"(?:\bfrom|^[ \t]*import|\bimport[ \t]*\(|\brequire[ \t]*\()" r"""[ \t]*['"]([^'"\n]+)['"]""",
    re.MULTILINE,
)
_TEST_FILE = r"\.(?:test|spec)\.[cm]?[jt]sx?$"
_JS_OUTLINE = Outline(
    functions=frozenset(
        {"function_declaration", "generator_function_declaration", "method_definition",
         "arrow_function", "function_expression"}
    ),
    scopes=frozenset({"class_declaration", "class"}),
    groups=frozenset({"export_statement"}),
)  # fmt: skip
_TS_OUTLINE = replace(
    _JS_OUTLINE,
    scopes=_JS_OUTLINE.scopes
    | {"abstract_class_declaration", "interface_declaration", "enum_declaration", "module"},
)
_FRAGMENTS = Fragments(
    class_wrap=("class W_ {\n", "\n}"), function_wrap=("function w_() {\n", "\n}")
)


def _imports(*extensions: str) -> Imports:
    return Imports(
        patterns=(_IMPORT,),
        module_extensions=extensions,
        index_names=("index",),
        line_words=("from", "import", "require"),  # _IMPORT never crosses a line
    )


_BASE = Language(
    name="",
    family=Family.CODE,
    chunker=Chunker.CODE,
    comment_kinds=("comment",),
    doc_style=DocStyle.SLASH_STAR,
    test_file_patterns=(_TEST_FILE,),
    marker_comment=("// ", ""),
    fragments=_FRAGMENTS,
    outline=_JS_OUTLINE,
)


_TS_SYNTAX = Syntax(
    functions=_FUNCTIONS,
    classes=_TS_CLASSES,
    types=_TS_TYPES,
    wrappers=_WRAPPERS,
    namespaces=_NAMESPACES,
    attached=frozenset({"decorator"}),
    quirks=_QUIRKS,
    test_calls=_TEST_CALLS,
    bindings=_BINDINGS,
    binding_name="variable_declarator",
    function_values=_FUNCTION_VALUES,
    class_values=_CLASS_VALUES,
)

JAVASCRIPT = replace(
    _BASE,
    name="javascript",
    grammar="javascript",
    syntax=Syntax(
        functions=_FUNCTIONS,
        classes=_JS_CLASSES,
        wrappers=_WRAPPERS,
        attached=frozenset({"decorator"}),
        quirks=_QUIRKS,
        test_calls=_TEST_CALLS,
        bindings=_BINDINGS,
        binding_name="variable_declarator",
        function_values=_FUNCTION_VALUES,
        class_values=_CLASS_VALUES,
    ),
    imports=_imports(".js", ".jsx", ".mjs", ".cjs"),
    extensions=(".js", ".mjs", ".cjs", ".jsx"),
    task_words=("javascript",),
    mention_extensions=(".js", ".jsx", ".mjs"),
)
TYPESCRIPT = replace(
    _BASE,
    name="typescript",
    grammar="typescript",
    syntax=_TS_SYNTAX,
    outline=_TS_OUTLINE,
    imports=_imports(".ts"),
    extensions=(".ts", ".mts", ".cts"),
    task_words=("typescript",),
    mention_extensions=(".ts",),
)
TSX = replace(
    _BASE,
    name="tsx",
    grammar="tsx",
    syntax=_TS_SYNTAX,
    outline=_TS_OUTLINE,
    imports=_imports(".tsx"),
    extensions=(".tsx",),
    task_words=("tsx",),
    mention_extensions=(".tsx",),
)

LANGUAGES = (JAVASCRIPT, TYPESCRIPT, TSX)
