"""C, C++, Go and Rust."""

from __future__ import annotations

import re

from ctxopt.languages.lexical import LexStyle
from ctxopt.languages.record import (
    Chunker,
    Directives,
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

_M = re.MULTILINE
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', _M)
_C_TYPES = {"type_definition": "type", "enum_specifier": "type"}
_PREPROC = frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"})
_C_DIRECTIVES = Directives(
    opens=re.compile(
        r"[ \t]*#[ \t]*(?:(?:if|ifdef|ifndef|elif|elifdef|elifndef|else)\b|pragma[ \t]+region\b)"
    ),
    closes=re.compile(r"[ \t]*#[ \t]*(?:endif\b|pragma[ \t]+endregion\b)"),
)
# test macros given a block: `TEST_CASE("...") {...}` (Catch2, doctest; their sections nest),
# `TEST(Suite, Name) {...}` (GoogleTest), `BOOST_AUTO_TEST_CASE(name) {...}`
_C_TEST_MACROS = frozenset(
    {
        "TEST_CASE", "TEST_CASE_METHOD", "TEST_CASE_FIXTURE", "TEST_CASE_TEMPLATE",
        "TEMPLATE_TEST_CASE", "TEST_SUITE", "SECTION", "DYNAMIC_SECTION", "SUBCASE",
        "SCENARIO", "GIVEN", "WHEN", "THEN", "AND_GIVEN", "AND_WHEN", "AND_THEN",
        "TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P", "BOOST_AUTO_TEST_CASE",
        "BOOST_FIXTURE_TEST_CASE", "BOOST_AUTO_TEST_SUITE",
    }
)  # fmt: skip

# the C preprocessor's and extern "C"'s wrappers, in C and C++ alike
C_GROUPS = frozenset(
    {
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
        "linkage_specification",
        "declaration_list",
    }
)

C = Language(
    name="c",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".c", ".h"),
    grammar="c",
    syntax=Syntax(
        functions=frozenset({"function_definition"}),
        classes={"struct_specifier": "class", "union_specifier": "class"},
        bodied=frozenset({"struct_specifier", "union_specifier"}),  # `struct s;` declares none
        types=_C_TYPES,
        groups=_PREPROC,
        quirks=frozenset({Quirk.TYPEDEF_STRUCTS, Quirk.MACRO_BLOCKS}),
        test_calls=_C_TEST_MACROS,
    ),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset({"function_definition"}),
        scopes=frozenset({"struct_specifier"}),
        groups=C_GROUPS,
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=Imports(patterns=(_INCLUDE,), module_extensions=(".h", ".c")),
    mention_extensions=(".c", ".h"),
    marker_comment=("// ", ""),
    directives=_C_DIRECTIVES,
    fragments=Fragments(function_wrap=("void w_(void) {\n", "\n}")),
    retry_as="cpp",  # a .h file is often C++
)

CPP = Language(
    name="cpp",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"),
    grammar="cpp",
    syntax=Syntax(
        functions=frozenset({"function_definition"}),
        classes={
            "struct_specifier": "class",
            "union_specifier": "class",
            "class_specifier": "class",
        },
        bodied=frozenset({"struct_specifier", "union_specifier", "class_specifier"}),
        types={**_C_TYPES, "alias_declaration": "type", "concept_definition": "type"},
        namespaces=frozenset({"namespace_definition"}),
        groups=_PREPROC | {"linkage_specification"},
        wrappers=frozenset({"template_declaration", "friend_declaration"}),
        quirks=frozenset(
            {
                Quirk.TYPEDEF_STRUCTS,
                Quirk.QUALIFIED_NAMES,
                Quirk.MACRO_BLOCKS,
            }
        ),
        test_calls=_C_TEST_MACROS,
    ),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset({"function_definition"}),
        scopes=frozenset({"class_specifier", "struct_specifier", "namespace_definition"}),
        groups=C_GROUPS,
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=Imports(patterns=(_INCLUDE,), module_extensions=(".hpp", ".cc", ".cpp")),
    task_words=("c++", "cpp"),
    mention_extensions=(".cc", ".cpp", ".hpp"),
    marker_comment=("// ", ""),
    directives=_C_DIRECTIVES,
    fragments=Fragments(
        class_wrap=("struct W_ {\n", "\n};"), function_wrap=("void w_() {\n", "\n}")
    ),
)

GO = Language(
    name="go",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".go",),
    grammar="go",
    syntax=Syntax(
        functions=frozenset({"function_declaration", "method_declaration"}),
        classes={},
        types={"type_declaration": "type"},
        quirks=frozenset({Quirk.RECEIVER_PARENT, Quirk.TYPE_SPECS}),
    ),
    comment_kinds=("comment",),
    outline=Outline(functions=frozenset({"function_declaration", "method_declaration"})),
    doc_style=DocStyle.ADJACENT,
    doc_above=frozenset(
        {
            "function_declaration",
            "method_declaration",
            "type_declaration",
            "const_declaration",
            "var_declaration",
            "package_clause",
        }
    ),
    imports=Imports(
        patterns=(re.compile(r'^[ \t]*import[ \t]+(?:[\w.]+[ \t]+)?"([^"\n]+)"', _M),),
        block=re.compile(r"^import[ \t]*\(([^)]*)\)", _M),
        block_item=re.compile(r'^[ \t]*(?:[\w.]+[ \t]+)?"([^"\n]+)"[ \t]*$', _M),
        module_extensions=(".go",),
    ),
    task_words=("golang",),  # "go" is too common a word to name the language
    mention_extensions=(".go",),
    marker_comment=("// ", ""),
    fragments=Fragments(function_wrap=("func w_() {\n", "\n}")),
)

RUST = Language(
    name="rust",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".rs",),
    grammar="rust",
    syntax=Syntax(
        functions=frozenset({"function_item", "function_signature_item", "macro_definition"}),
        classes={
            "struct_item": "class",
            "union_item": "class",
            "enum_item": "type",
            "trait_item": "interface",
            "impl_item": "class",
        },
        bodied=frozenset({"struct_item", "union_item", "enum_item", "trait_item", "impl_item"}),
        types={"type_item": "type"},
        namespaces=frozenset({"mod_item"}),
        attached=frozenset({"attribute_item"}),
    ),
    # doc_comment nodes exist too, but only inside a line_comment or block_comment
    comment_kinds=("line_comment", "block_comment"),
    outline=Outline(
        functions=frozenset({"function_item"}),
        scopes=frozenset({"impl_item", "trait_item", "mod_item"}),
        groups=frozenset({"declaration_list"}),
    ),
    doc_style=DocStyle.SLASH_STAR,
    lex_style=LexStyle.RUST,
    imports=Imports(
        patterns=(
            re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+([\w:]+)", _M),
            re.compile(r"^[ \t]*extern[ \t]+crate[ \t]+(\w+)", _M),
        ),
        split=ImportSplit.STRIP_COLONS,
        module_extensions=(".rs",),
        index_names=("mod", "lib", "main"),
        path_noise=("crate", "self", "super"),
    ),
    task_words=("rust",),
    mention_extensions=(".rs",),
    marker_comment=("// ", ""),
    fragments=Fragments(class_wrap=("impl W_ {\n", "\n}"), function_wrap=("fn w_() {\n", "\n}")),
)

LANGUAGES = (C, CPP, GO, RUST)
