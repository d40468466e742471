"""Node kinds shared across grammars: bodies and names, whatever the language."""

from __future__ import annotations

BODY_KINDS = frozenset(
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

NAME_KINDS = frozenset(
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
