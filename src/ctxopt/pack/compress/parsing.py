"""Tree-sitter parses of chunk text: fragments wrapped to parse in context, errors counted."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Query

GRAMMAR_LANGUAGES = frozenset(
    {
        "python", "javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp",
        "csharp", "ruby", "php", "kotlin", "swift", "scala", "bash", "yaml", "json", "toml",
    }
)  # fmt: skip
STRUCTURED = frozenset({"yaml", "json", "toml"})
COMMENT_KINDS = ("comment", "line_comment", "block_comment", "multiline_comment")
_STRING_TOKENS = frozenset({"string", "heredoc", "nowdoc", "template", "scalar", "raw"})

_CLASS_WRAP = {
    "java": ("class W_ {\n", "\n}"),
    "csharp": ("class W_ {\n", "\n}"),
    "kotlin": ("class W_ {\n", "\n}"),
    "swift": ("class W_ {\n", "\n}"),
    "scala": ("class W_ {\n", "\n}"),
    "javascript": ("class W_ {\n", "\n}"),
    "typescript": ("class W_ {\n", "\n}"),
    "tsx": ("class W_ {\n", "\n}"),
    "php": ("<?php\nclass W_ {\n", "\n}"),
    "cpp": ("struct W_ {\n", "\n};"),
    "ruby": ("class W_\n", "\nend"),
    "rust": ("impl W_ {\n", "\n}"),
}
_FUNC_WRAP = {
    "java": ("class W_ { void w_() {\n", "\n}}"),
    "csharp": ("class W_ { void w_() {\n", "\n}}"),
    "kotlin": ("fun w_() {\n", "\n}"),
    "swift": ("func w_() {\n", "\n}"),
    "scala": ("def w_ = {\n", "\n}"),
    "javascript": ("function w_() {\n", "\n}"),
    "typescript": ("function w_() {\n", "\n}"),
    "tsx": ("function w_() {\n", "\n}"),
    "php": ("<?php\nfunction w_() {\n", "\n}"),
    "c": ("void w_(void) {\n", "\n}"),
    "cpp": ("void w_() {\n", "\n}"),
    "go": ("func w_() {\n", "\n}"),
    "rust": ("fn w_() {\n", "\n}"),
    "bash": ("w_() {\n", "\n}"),
}


@dataclass(frozen=True)
class Parsed:
    root: Node
    data: bytes  # the chunk text, utf-8
    prefix_len: int  # bytes of wrapper before the text
    prefix_rows: int
    errors: int

    def rows(self, node: Node) -> tuple[int, int]:
        """Start and end row of a node, relative to the chunk text."""
        return node.start_point.row - self.prefix_rows, node.end_point.row - self.prefix_rows

    def span(self, node: Node) -> tuple[int, int]:
        return node.start_byte - self.prefix_len, node.end_byte - self.prefix_len


@cache
def _parser(language: str) -> Parser:
    from tree_sitter_language_pack import get_parser

    return get_parser(language)  # type: ignore[arg-type]


@cache
def _kinds_query(language: str, kinds: tuple[str, ...]) -> Query | None:
    import tree_sitter
    from tree_sitter_language_pack import get_language

    lang = get_language(language)  # type: ignore[arg-type]
    present = [k for k in kinds if lang.id_for_node_kind(k, True)]
    if not present:
        return None
    return tree_sitter.Query(lang, "[" + " ".join(f"({k})" for k in present) + "] @n")


@cache
def _string_kinds(language: str) -> tuple[str, ...]:
    from tree_sitter_language_pack import get_language

    lang = get_language(language)  # type: ignore[arg-type]
    found = set()
    for i in range(lang.node_kind_count):
        name = lang.node_kind_for_id(i) or ""
        visible = name and lang.node_kind_is_named(i) and lang.node_kind_is_visible(i)
        if visible and (name.endswith("string") or _STRING_TOKENS & set(name.split("_"))):
            found.add(name)
    return tuple(sorted(found))


def captures(language: str, kinds: tuple[str, ...], root: Node) -> list[Node]:
    """Nodes of the given kinds under root, in source order."""
    import tree_sitter

    query = _kinds_query(language, kinds)
    if query is None:
        return []
    found = tree_sitter.QueryCursor(query).captures(root)
    return sorted(found.get("n", []), key=lambda n: n.start_byte)


def _count_errors(root: Node) -> int:
    """ERROR and MISSING nodes in a tree, visiting only subtrees that hold errors."""
    if not root.has_error:
        return 0
    total, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            total += 1
        stack.extend(c for c in node.children if c.has_error)
    return total


def width(line: str) -> int:
    """Columns of a line's leading whitespace, tabs to the next multiple of 8."""
    columns = 0
    for ch in line:
        if ch == " ":
            columns += 1
        elif ch == "\t":
            columns = (columns // 8 + 1) * 8
        else:
            break
    return columns


def _python_wrap(text: str) -> tuple[str, str] | None:
    """Nested `if 1:` headers so an indented Python fragment parses as a block."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if not lines:
        return None
    first = width(lines[0])
    if first == 0:
        return None
    levels = sorted({w for w in map(width, lines) if 0 < w <= first})
    heads = [" " * (levels[i - 1] if i else 0) + "if 1:\n" for i in range(len(levels))]
    return "".join(heads), ""


def _wrappers(text: str, language: str) -> list[tuple[str, str]]:
    base = ("<?php\n", "") if language == "php" and "<?" not in text else ("", "")
    found = [base]
    if language == "python":
        found += [w for w in [_python_wrap(text)] if w]
    for table in (_CLASS_WRAP, _FUNC_WRAP):
        if language in table:
            found.append(table[language])
    return found


def _parse_with(text: str, language: str, wrap: tuple[str, str]) -> Parsed:
    prefix, suffix = wrap
    data = text.encode("utf-8")
    tree = _parser(language).parse(prefix.encode() + data + suffix.encode())
    root = tree.root_node
    return Parsed(root, data, len(prefix.encode()), prefix.count("\n"), _count_errors(root))


def parse(text: str, language: str) -> Parsed:
    """The parse of text with the fewest errors among a few wrappers (raw first)."""
    best: Parsed | None = None
    for wrap in _wrappers(text, language):
        parsed = _parse_with(text, language, wrap)
        if best is None or parsed.errors < best.errors:
            best = parsed
        if best.errors == 0:
            break
    assert best is not None
    return best


def parse_errors(text: str, language: str) -> int:
    """ERROR/MISSING nodes in text's best parse (a fragment is wrapped to parse in context)."""
    return parse(text, language).errors


def raw_parse_errors(text: str, language: str) -> int:
    """ERROR/MISSING nodes when text is parsed exactly as given."""
    base = ("<?php\n", "") if language == "php" and "<?" not in text else ("", "")
    return _parse_with(text, language, base).errors


def guarded(before: str, after: str, language: str) -> bool:
    """True when after holds no more parse errors than before, wrapped or raw."""
    if parse_errors(after, language) > parse_errors(before, language):
        return False
    return raw_parse_errors(after, language) <= raw_parse_errors(before, language)


def string_rows(parsed: Parsed, language: str) -> tuple[set[int], set[int]]:
    """Rows that begin inside a string, and rows that end inside one."""
    begin_inside: set[int] = set()
    end_inside: set[int] = set()
    for node in captures(language, _string_kinds(language), parsed.root):
        first, last = parsed.rows(node)
        if last > first:
            begin_inside.update(range(first + 1, last + 1))
            end_inside.update(range(first, last))
    for node in captures(language, COMMENT_KINDS, parsed.root):
        first, last = parsed.rows(node)
        last -= node.end_point.column == 0  # a line comment that holds its newline
        begin_inside.update(range(first + 1, last + 1))  # keep a block comment's shape
    return begin_inside, end_inside
