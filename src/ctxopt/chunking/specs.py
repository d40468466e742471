"""Per-language tables of tree-sitter node types: what is a function, a class, a wrapper."""

from __future__ import annotations

from dataclasses import dataclass, field

_COMMENTS = frozenset(
    {"comment", "line_comment", "block_comment", "multiline_comment", "doc_comment"}
)


@dataclass(frozen=True)
class LangSpec:
    """Node types of one grammar, grouped by the role they play in chunking."""

    functions: frozenset[str]  # function-like: a function at top level, a method in a class
    classes: dict[str, str]  # container node type -> chunk kind (class, interface, type)
    types: dict[str, str] = field(default_factory=dict)  # leaf declarations -> chunk kind
    namespaces: frozenset[str] = frozenset()  # children chunked separately, name prefixed
    groups: frozenset[str] = frozenset()  # wrappers whose children are top-level items
    wrappers: frozenset[str] = frozenset()  # look inside for the declaration, keep the range
    attached: frozenset[str] = _COMMENTS  # siblings above a declaration that belong to it
    docstring_in_body: bool = False  # Python: the first string of the body
    brace_body: bool = True  # the body node starts on the signature line ("{")


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


_JS_FUNCS = _fs(
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "function_signature",
    "method_signature",
    "abstract_method_signature",
)
_JS_CLASSES = {
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
}
_TS_CLASSES = {**_JS_CLASSES, "interface_declaration": "interface", "enum_declaration": "type"}
_TS_TYPES = {"type_alias_declaration": "type"}
_JS_WRAPPERS = _fs("export_statement", "ambient_declaration")
_C_TYPES = {"type_definition": "type", "enum_specifier": "type"}

SPECS: dict[str, LangSpec] = {
    "python": LangSpec(
        functions=_fs("function_definition"),
        classes={"class_definition": "class"},
        wrappers=_fs("decorated_definition"),
        attached=_fs("comment"),
        docstring_in_body=True,
        brace_body=False,
    ),
    "javascript": LangSpec(
        functions=_JS_FUNCS,
        classes=_JS_CLASSES,
        wrappers=_JS_WRAPPERS,
        attached=_fs("comment", "decorator"),
    ),
    "typescript": LangSpec(
        functions=_JS_FUNCS,
        classes=_TS_CLASSES,
        types=_TS_TYPES,
        wrappers=_JS_WRAPPERS,
        namespaces=_fs("internal_module", "module"),
        attached=_fs("comment", "decorator"),
    ),
    "tsx": LangSpec(
        functions=_JS_FUNCS,
        classes=_TS_CLASSES,
        types=_TS_TYPES,
        wrappers=_JS_WRAPPERS,
        namespaces=_fs("internal_module", "module"),
        attached=_fs("comment", "decorator"),
    ),
    "go": LangSpec(
        functions=_fs("function_declaration", "method_declaration"),
        classes={},
        types={"type_declaration": "type"},
    ),
    "rust": LangSpec(
        functions=_fs("function_item", "function_signature_item", "macro_definition"),
        classes={
            "struct_item": "class",
            "union_item": "class",
            "enum_item": "type",
            "trait_item": "interface",
            "impl_item": "class",
        },
        types={"type_item": "type"},
        namespaces=_fs("mod_item"),
        attached=_COMMENTS | {"attribute_item"},
    ),
    "java": LangSpec(
        functions=_fs(
            "method_declaration", "constructor_declaration", "compact_constructor_declaration"
        ),
        classes={
            "class_declaration": "class",
            "record_declaration": "class",
            "enum_declaration": "type",
            "interface_declaration": "interface",
            "annotation_type_declaration": "interface",
        },
        groups=_fs("enum_body_declarations"),
    ),
    "c": LangSpec(
        functions=_fs("function_definition"),
        classes={"struct_specifier": "class", "union_specifier": "class"},
        types=_C_TYPES,
        groups=_fs("preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"),
    ),
    "cpp": LangSpec(
        functions=_fs("function_definition"),
        classes={
            "struct_specifier": "class",
            "union_specifier": "class",
            "class_specifier": "class",
        },
        types={**_C_TYPES, "alias_declaration": "type", "concept_definition": "type"},
        namespaces=_fs("namespace_definition"),
        groups=_fs(
            "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "linkage_specification"
        ),
        wrappers=_fs("template_declaration"),
    ),
    "csharp": LangSpec(
        functions=_fs(
            "method_declaration",
            "constructor_declaration",
            "destructor_declaration",
            "operator_declaration",
            "conversion_operator_declaration",
            "local_function_statement",
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
        namespaces=_fs("namespace_declaration", "file_scoped_namespace_declaration"),
    ),
    "ruby": LangSpec(
        functions=_fs("method", "singleton_method"),
        classes={"class": "class", "module": "class", "singleton_class": "class"},
        brace_body=False,
    ),
    "php": LangSpec(
        functions=_fs("function_definition", "method_declaration"),
        classes={
            "class_declaration": "class",
            "trait_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "type",
        },
        namespaces=_fs("namespace_definition"),
        attached=_fs("comment", "attribute_list"),
    ),
    "kotlin": LangSpec(
        functions=_fs("function_declaration", "secondary_constructor", "anonymous_initializer"),
        classes={
            "class_declaration": "class",
            "object_declaration": "class",
            "companion_object": "class",
        },
        types={"type_alias": "type"},
    ),
    "swift": LangSpec(
        functions=_fs(
            "function_declaration",
            "init_declaration",
            "deinit_declaration",
            "subscript_declaration",
            "protocol_function_declaration",
        ),
        classes={"class_declaration": "class", "protocol_declaration": "interface"},
        types={"typealias_declaration": "type"},
    ),
    "scala": LangSpec(
        functions=_fs("function_definition", "function_declaration"),
        classes={
            "class_definition": "class",
            "object_definition": "class",
            "trait_definition": "interface",
            "enum_definition": "type",
        },
        types={"type_definition": "type"},
        brace_body=False,
    ),
    "bash": LangSpec(functions=_fs("function_definition"), classes={}, brace_body=False),
}

BODY_TYPES = frozenset(
    {
        "block",
        "body_statement",
        "class_body",
        "compound_statement",
        "declaration_list",
        "enum_body",
        "enum_class_body",
        "field_declaration_list",
        "function_body",
        "interface_body",
        "protocol_body",
        "statement_block",
        "template_body",
        "arrow_expression_clause",
        "indented_block",
        "enum_variant_list",
    }
)

NAME_TYPES = frozenset(
    {
        "identifier",
        "type_identifier",
        "simple_identifier",
        "constant",
        "name",
        "field_identifier",
        "property_identifier",
        "word",
        "namespace_identifier",
        "qualified_name",
        "namespace_name",
        "scoped_identifier",
    }
)

# JS/TS test-framework calls whose top-level statements become test chunks.
TEST_CALLS = frozenset({"describe", "it", "test", "context", "suite"})
