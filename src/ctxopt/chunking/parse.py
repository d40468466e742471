"""Tree-sitter parsers per language, parsing with a deadline, and the tree-health check."""

from __future__ import annotations

import time

from tree_sitter import Parser, Tree

from ctxopt.languages import by_name
from ctxopt.languages.parsers import parser

_READ_SIZE = 1 << 20


class ParseFailure(Exception):
    """Parsing produced no usable tree; the message is the fallback reason.  `broken_tree` is
    True when the grammar did read the file but most of it came out as ERROR nodes (a
    stand-in of the source may read better), False for no grammar or a timeout."""

    def __init__(self, reason: str, *, broken_tree: bool = False) -> None:
        super().__init__(reason)
        self.broken_tree = broken_tree


def _parser(language: str, grammar: str | None) -> Parser | None:
    record = by_name(language)
    if grammar is None:
        grammar = record.grammar if record is not None else None
    return parser(grammar) if grammar is not None else None


def parse(language: str, source: bytes, timeout_s: float, *, grammar: str | None = None) -> Tree:
    """Parse source with the language's grammar (or the grammar named), giving up after
    timeout_s seconds (raises ParseFailure)."""
    found = _parser(language, grammar)
    if found is None:
        raise ParseFailure("no_grammar")
    if timeout_s <= 0:
        raise ParseFailure("timeout")
    deadline = time.monotonic() + timeout_s

    def read(offset: int, _point: tuple[int, int]) -> bytes:
        return source[offset : offset + _READ_SIZE]

    def expired(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    found.reset()
    try:
        tree = found.parse(read, progress_callback=expired)
    except ValueError as exc:  # the callback cancelled the parse
        found.reset()
        if time.monotonic() > deadline:
            raise ParseFailure("timeout") from exc
        raise ParseFailure(f"parse_error: {exc}", broken_tree=True) from exc
    if tree is None:
        raise ParseFailure("timeout")
    _check_health(tree, len(source))
    return tree


def _check_health(tree: Tree, size: int) -> None:
    """Raise ParseFailure when most of the file sits in top-level ERROR nodes."""
    root = tree.root_node
    if not root.has_error:
        return
    if root.type == "ERROR":
        raise ParseFailure("parse_error: the whole file is an ERROR node", broken_tree=True)
    bad = sum(c.end_byte - c.start_byte for c in root.children if c.type == "ERROR")
    if size and bad * 2 > size:
        raise ParseFailure(
            f"parse_error: {bad * 100 // size}% of the file is ERROR nodes", broken_tree=True
        )


def error_bytes(tree: Tree) -> int:
    """How much of the source the tree could not read: the bytes under ERROR nodes, at any
    depth, plus one per node the parser had to invent (MISSING).  0 for a clean tree."""
    total = 0
    pending = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.type == "ERROR" or node.is_missing:
            total += max(1, node.end_byte - node.start_byte)
        elif node.has_error:
            pending.extend(node.children)
    return total
