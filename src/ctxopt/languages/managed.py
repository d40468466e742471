"""Java, Kotlin, Scala, C# and Swift."""

from __future__ import annotations

import re

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
_CLASS_WRAP = ("class W_ {\n", "\n}")


def _test_file(extension: str) -> str:
    """Test classes are named `FooTest`, `FooTests` or `FooSpec`."""
    return r"(?:Tests?|Spec)\." + extension + "$"


def _jvm_imports(*extensions: str) -> Imports:
    return Imports(
        patterns=(re.compile(r"^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.*]+)", _M),),
        split=ImportSplit.STRIP_DOTS,
        module_extensions=extensions,
        path_noise=("*",),
    )


JAVA = Language(
    name="java",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".java",),
    grammar="java",
    syntax=Syntax(
        functions=frozenset(
            {"method_declaration", "constructor_declaration", "compact_constructor_declaration"}
        ),
        classes={
            "class_declaration": "class",
            "record_declaration": "class",
            "enum_declaration": "type",
            "interface_declaration": "interface",
            "annotation_type_declaration": "interface",
            "enum_constant": "constant",
        },
        bodied=frozenset({"enum_constant"}),
        groups=frozenset({"enum_body_declarations"}),
    ),
    comment_kinds=("line_comment", "block_comment"),
    outline=Outline(
        functions=frozenset({"method_declaration", "constructor_declaration"}),
        scopes=frozenset(
            {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration"}
        ),
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=_jvm_imports(".java"),
    test_file_patterns=(_test_file("java"),),
    task_words=("java",),
    mention_extensions=(".java",),
    marker_comment=("// ", ""),
    fragments=Fragments(class_wrap=_CLASS_WRAP, function_wrap=("class W_ { void w_() {\n", "\n}}")),
)

KOTLIN = Language(
    name="kotlin",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".kt", ".kts"),
    # tree-sitter-kotlin 1.x reads current syntax the pack's grammar reads as one ERROR node
    # (`object : Call<T> by call { ... }`); the pack's reads a few shapes the newer one cannot
    # (`class Options` with `private constructor(` on the next line), so both are tried
    grammar="tree_sitter_kotlin",
    second_grammar="kotlin",
    syntax=Syntax(
        functions=frozenset(
            {"function_declaration", "secondary_constructor", "anonymous_initializer"}
        ),
        classes={
            "class_declaration": "class",
            "object_declaration": "class",
            "companion_object": "class",
            "enum_entry": "constant",
        },
        bodied=frozenset({"enum_entry"}),
        types={"type_alias": "type"},
        quirks=frozenset({Quirk.INTERFACE_KEYWORD}),
        default_names={"companion_object": "Companion"},
    ),
    comment_kinds=("line_comment", "block_comment", "multiline_comment"),  # newer grammar, pack's
    outline=Outline(
        functions=frozenset(
            {"function_declaration", "secondary_constructor", "anonymous_initializer"}
        ),
        scopes=frozenset({"class_declaration", "object_declaration", "companion_object"}),
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=_jvm_imports(".kt"),
    test_file_patterns=(_test_file("kt"),),
    task_words=("kotlin",),
    mention_extensions=(".kt",),
    marker_comment=("// ", ""),
    fragments=Fragments(class_wrap=_CLASS_WRAP, function_wrap=("fun w_() {\n", "\n}")),
)

SCALA = Language(
    name="scala",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".scala", ".sc"),
    grammar="scala",
    syntax=Syntax(
        functions=frozenset({"function_definition", "function_declaration"}),
        classes={
            "class_definition": "class",
            "object_definition": "class",
            "trait_definition": "interface",
            "enum_definition": "type",
        },
        types={"type_definition": "type"},
        brace_body=False,
    ),
    comment_kinds=("comment", "block_comment"),
    outline=Outline(
        functions=frozenset({"function_definition", "function_declaration"}),
        scopes=frozenset(
            {"class_definition", "object_definition", "trait_definition", "extension_definition"}
        ),
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=_jvm_imports(".scala"),
    test_file_patterns=(_test_file("scala"),),
    task_words=("scala",),
    mention_extensions=(".scala",),
    marker_comment=("// ", ""),
    fragments=Fragments(class_wrap=_CLASS_WRAP, function_wrap=("def w_ = {\n", "\n}")),
)

CSHARP = Language(
    name="csharp",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".cs",),
    grammar="csharp",
    syntax=Syntax(
        functions=frozenset(
            {
                "method_declaration",
                "constructor_declaration",
                "destructor_declaration",
                "operator_declaration",
                "conversion_operator_declaration",
                "local_function_statement",
            }
        ),
        classes={
            "class_declaration": "class",
            "struct_declaration": "class",
            "record_declaration": "class",
            "record_struct_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "type",
        },
        types={"delegate_declaration": "type"},
        namespaces=frozenset({"namespace_declaration", "file_scoped_namespace_declaration"}),
    ),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset(
            {
                "method_declaration",
                "constructor_declaration",
                "destructor_declaration",
                "operator_declaration",
                "local_function_statement",
            }
        ),
        scopes=frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "struct_declaration",
                "record_declaration",
                "enum_declaration",
                "namespace_declaration",
            }
        ),
        groups=frozenset({"preproc_if", "preproc_else", "preproc_elif", "declaration_list"}),
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=Imports(
        patterns=(
            re.compile(
                r"^[ \t]*(?:global[ \t]+)?using[ \t]+(?:static[ \t]+)?"
                r"(?:\w+[ \t]*=[ \t]*)?([\w.]+)[ \t]*;",
                _M,
            ),
        ),
        module_extensions=(".cs",),
    ),
    test_file_patterns=(_test_file("cs"),),
    task_words=("c#", "csharp"),
    mention_extensions=(".cs",),
    marker_comment=("// ", ""),
    directives=Directives(
        opens=re.compile(r"[ \t]*#[ \t]*(?:if|elif|else|region)\b"),
        closes=re.compile(r"[ \t]*#[ \t]*(?:endif|endregion)\b"),
    ),
    fragments=Fragments(class_wrap=_CLASS_WRAP, function_wrap=("class W_ { void w_() {\n", "\n}}")),
)

SWIFT = Language(
    name="swift",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".swift",),
    grammar="swift",
    syntax=Syntax(
        functions=frozenset(
            {
                "function_declaration",
                "init_declaration",
                "deinit_declaration",
                "subscript_declaration",
                "protocol_function_declaration",
            }
        ),
        classes={"class_declaration": "class", "protocol_declaration": "interface"},
        types={"typealias_declaration": "type"},
        quirks=frozenset({Quirk.DECLARATION_KIND_FIELD}),
    ),
    comment_kinds=("comment", "multiline_comment"),
    outline=Outline(
        functions=frozenset(
            {
                "function_declaration",
                "init_declaration",
                "deinit_declaration",
                "operator_declaration",
            }
        ),
        scopes=frozenset({"class_declaration", "protocol_declaration"}),
    ),
    doc_style=DocStyle.SLASH_STAR,
    imports=Imports(
        patterns=(
            re.compile(
                r"^[ \t]*(?:@\w+[ \t]+)*import[ \t]+"
                r"(?:(?:class|struct|func|enum|protocol|typealias|var|let)[ \t]+)?([\w.]+)",
                _M,
            ),
        ),
        module_extensions=(".swift",),
    ),
    test_file_patterns=(_test_file("swift"),),
    task_words=("swift",),
    mention_extensions=(".swift",),
    marker_comment=("// ", ""),
    fragments=Fragments(class_wrap=_CLASS_WRAP, function_wrap=("func w_() {\n", "\n}")),
)

LANGUAGES = (JAVA, KOTLIN, SCALA, CSHARP, SWIFT)
