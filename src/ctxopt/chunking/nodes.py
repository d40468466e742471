"""Reading names, bodies, ranges and signatures off tree-sitter nodes."""

from __future__ import annotations

import re

from tree_sitter import Node

from ctxopt.languages.nodes import BODY_KINDS, NAME_KINDS

_GENERICS = re.compile(r"<.*>|\[.*\]")
_LEADING_ATTRS = re.compile(r"^(?:(?:@[\w.]+(?:\([^)]*\))?|#?\[[^\]]*\])\s*)+")
_WS = re.compile(r"\s+")
# a comment line inside a header: `#` (not Rust's `#[`, `#!`), `//`, `/*`, and a block
# comment's ` * ...` or ` */` line; never Python's `*args` or `**kwargs` parameter line
_COMMENT_LINE = re.compile(r"^\s*(?:#(?![\[!])|//|/\*|\*(?=\s|/|$))")
MAX_SIGNATURE = 300


def line_of(row: int) -> int:
    """The 1-based line number of a tree-sitter row (0-based; rows end at \\n, as lines do:
    see chunking/numbering.py)."""
    return row + 1


def end_row(node: Node) -> int:
    """The last row holding text of node (a node ending at column 0 ends on the row before)."""
    row, col = node.end_point
    if col == 0 and row > node.start_point[0]:
        return row - 1
    return row


def text_of(source: bytes, node: Node | None) -> str:
    """The source text of node (sliced from source: Node.text is slow after a callback parse)."""
    if node is None:
        return ""
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def body_of(node: Node) -> Node | None:
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    for child in node.named_children:
        if child.type in BODY_KINDS:
            return child
    return None


def name_of(source: bytes, node: Node) -> str:
    """The declared name: the name field, a C declarator chain, or the first identifier child."""
    named = node.child_by_field_name("name")
    if named is not None:
        return _strip_generics(text_of(source, named))
    declarator = node.child_by_field_name("declarator")
    if declarator is not None:
        innermost = _innermost(declarator)
        converts_to = innermost.child_by_field_name("type")
        if innermost.type == "operator_cast" and converts_to is not None:
            return f"operator {text_of(source, converts_to)}"  # `operator string_t() const`
        return text_of(source, innermost)
    impl_type = node.child_by_field_name("type")
    if impl_type is not None and node.type == "impl_item":
        return _strip_generics(text_of(source, impl_type)).split("::")[-1]
    for child in node.named_children:
        if child.type in NAME_KINDS:
            return _strip_generics(text_of(source, child))
    return ""


# declarators whose inner declarator has no field name: `(f)`, and C++'s `&f` / `&&f`
_UNNAMED_INNER = frozenset({"parenthesized_declarator", "reference_declarator"})


def _innermost(declarator: Node) -> Node:
    """The name at the end of a C declarator chain; `TEST_IMPL(tcp_close)` names `tcp_close`,
    C++'s `T& back() const` names `back`; a conversion operator stops at its `operator_cast`."""
    while True:
        if declarator.type == "operator_cast":
            return declarator
        deeper = declarator.child_by_field_name("declarator")
        if deeper is None and declarator.type in _UNNAMED_INNER:
            deeper = declarator.named_children[-1] if declarator.named_children else None
        if deeper is None:
            return declarator
        declarator = deeper


def _strip_generics(name: str) -> str:
    return _GENERICS.sub("", name).strip()


def signature(source: bytes, node: Node, body: Node | None) -> str:
    """The header of node up to its body, on one line, without leading attributes."""
    stop = body.start_byte if body is not None and body.start_byte > node.start_byte else 0
    if not stop:
        line_end = source.find(b"\n", node.start_byte)
        stop = node.end_byte if line_end < 0 else min(line_end, node.end_byte)
    raw = source[node.start_byte : stop].decode("utf-8", "replace")
    raw = "\n".join(ln for ln in raw.splitlines() if not _COMMENT_LINE.match(ln))
    flat = _WS.sub(" ", _LEADING_ATTRS.sub("", raw.strip())).strip()
    flat = flat.rstrip("{").rstrip()
    if flat.endswith(":") and not flat.endswith("::"):
        flat = flat[:-1].rstrip()
    return flat[:MAX_SIGNATURE]


def signature_end_row(source: bytes, node: Node, body: Node | None) -> int:
    """Last row of the header: the body's first row if it opens a brace, else the prior row."""
    if body is None:
        return end_row(node)
    start = body.start_point[0]
    opens_brace = source[body.start_byte : body.start_byte + 1] == b"{"
    if start > node.start_point[0] and not opens_brace:
        return start - 1
    return start
