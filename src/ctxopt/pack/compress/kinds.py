"""How aggressive compression reads syntax: definitions, containers, bodies, statement kinds.

Definitions, containers, groups and block closers come from the language records
(`Language.outline`); statements are read by the words in their node kinds
(``return_statement`` holds "return"), so one reading serves every language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxopt.languages import ALL
from ctxopt.pack.compress.parsing import COMMENT_KINDS

if TYPE_CHECKING:
    from tree_sitter import Node

# The node kinds of every grammar, from the language records (readers get a node, not its
# language; a kind means the same in every grammar that has it).
FUNCS = frozenset(kind for record in ALL for kind in record.outline.functions)
CONTAINERS = frozenset(kind for record in ALL for kind in record.outline.scopes)
# Members that only group declarations: their children are handled one by one.
TRANSPARENT = frozenset(kind for record in ALL for kind in record.outline.groups)
CLOSERS = frozenset(kind for record in ALL for kind in record.outline.closers)
# Words in node kind names (``return_statement`` holds "return"): how a statement reads.
_EXIT_TOKENS = frozenset({"return", "throw", "raise", "yield", "jump", "transfer"})
_EXIT_CALLS = frozenset({"raise", "panic", "abort", "fail", "exit"})
CONTROL_TOKENS = frozenset(
    {"if", "for", "while", "loop", "switch", "match", "try", "with", "select", "do", "unless",
     "until", "guard", "foreach", "when", "repeat", "case", "begin"}
)  # fmt: skip
CLAUSE_TOKENS = frozenset(
    {"else", "elif", "elsif", "except", "catch", "rescue", "finally", "case", "default",
     "when", "ensure"}
)  # fmt: skip
_CALL_TOKENS = frozenset({"call", "invocation", "command", "await"})
# Words of node kinds that only annotate what follows (`@get:CheckReturnValue`, `#[inline]`).
_ANNOTATION_TOKENS = frozenset({"annotation", "decorator", "attribute"})


def tokens_of(node: Node) -> set[str]:
    return set(node.type.split("_"))


def named_row(node: Node) -> int:
    """The row where a statement says what it is: the row of its first token outside
    annotations and comments (`public val path: String` under `@get:CheckReturnValue`)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in COMMENT_KINDS or tokens_of(current) & _ANNOTATION_TOKENS:
            continue
        if current.child_count == 0:
            return int(current.start_point.row)
        stack.extend(reversed(current.children))
    return int(node.start_point.row)


def definition_in(node: Node, depth: int = 3) -> Node | None:
    """node itself, or a function/class it wraps (decorators, export, const f = () => {})."""
    if node.type in FUNCS or node.type in CONTAINERS:
        return node
    if depth == 0:
        return None
    for child in node.named_children:
        if child.end_point.row == node.end_point.row:
            found = definition_in(child, depth - 1)
            if found is not None:
                return found
    return None


def body_of(node: Node) -> Node | None:
    """The body of a definition: its body field, else its last block-like child."""
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    for child in reversed(node.named_children):
        if {"body", "block", "statement", "list"} & tokens_of(child):
            return child
    return None


def statements(body: Node) -> list[Node]:
    """The statements (or members) of a body, through single wrapper nodes."""
    for _ in range(4):
        kids = [c for c in body.named_children if c.type not in COMMENT_KINDS]
        wrapper = len(kids) == 1 and {"statements", "list", "block", "body", "statement"} & (
            tokens_of(kids[0])
        )
        if not wrapper or kids[0].type in FUNCS or kids[0].type in CONTAINERS:
            return list(body.named_children)
        body = kids[0]
    return list(body.named_children)


def is_docstring(node: Node, kinds: frozenset[str]) -> bool:
    """A string of the given kinds, alone or as a statement of its own."""
    if node.type in kinds:
        return True
    if node.type != "expression_statement" or node.named_child_count != 1:
        return False
    return node.named_children[0].type in kinds


def kind_of(node: Node) -> str:
    """exit, def, control, call or other: what a statement means to aggressive."""
    probe = [node]
    if node.named_child_count and node.named_children[0].start_byte == node.start_byte:
        probe.append(node.named_children[0])  # a wrapper
    for part in probe:
        toks = tokens_of(part)
        if toks & _EXIT_TOKENS or part.type in ("return", "yield"):
            return "exit"
        if "call" in toks and part.named_child_count:
            callee = part.named_children[0]
            if (callee.text or b"").decode("utf-8", "replace") in _EXIT_CALLS:
                return "exit"
    if definition_in(node, 2) is not None:
        return "def"
    for part in probe:
        toks = tokens_of(part)
        if toks & CONTROL_TOKENS:
            return "control"
        if toks & _CALL_TOKENS:
            return "call"
    return "other"


def defines(members: list[Node]) -> bool:
    """True when a member is, wraps or (through preprocessor/linkage groups) holds a definition."""
    for member in members:
        if definition_in(member) is not None:
            return True
        if member.type in TRANSPARENT and defines(list(member.named_children)):
            return True
    return False


def leaves(members: list[Node]) -> list[Node]:
    """Members with grouping wrappers opened and comments dropped."""
    found: list[Node] = []
    for member in members:
        if member.type in TRANSPARENT:
            found += leaves(list(member.named_children))
        elif member.type not in COMMENT_KINDS:
            found.append(member)
    return found
