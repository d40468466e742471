"""Tree-sitter parses of chunk text: fragments wrapped to parse in context, errors counted."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ctxopt.bounded_cache import BoundedCache
from ctxopt.languages import ALL, Language, by_name
from ctxopt.languages.parsers import grammar, parser

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Query

# Comment node kinds of every grammar (for readers that do not know the language).
COMMENT_KINDS = tuple(sorted({kind for record in ALL for kind in record.comment_kinds}))
_STRING_TOKENS = frozenset({"string", "heredoc", "nowdoc", "template", "scalar", "raw"})


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


def record_of(language: str) -> Language:
    """The record of a language that has a grammar (raises ValueError otherwise)."""
    record = by_name(language)
    if record is None or record.grammar is None:
        raise ValueError(f"no grammar for {language!r}")
    return record


def _parser(language: str) -> Parser:
    found = parser(record_of(language).grammar or "")
    if found is None:
        raise ValueError(f"no parser for {language!r}")
    return found


def comment_kinds(language: str) -> tuple[str, ...]:
    """The comment node kinds of a language's grammar."""
    return record_of(language).comment_kinds


@cache
def _kinds_query(language: str, kinds: tuple[str, ...]) -> Query | None:
    import tree_sitter

    lang = grammar(record_of(language).grammar or "")
    present = [k for k in kinds if lang.id_for_node_kind(k, True)]
    if not present:
        return None
    return tree_sitter.Query(lang, "[" + " ".join(f"({k})" for k in present) + "] @n")


@cache
def _string_kinds(language: str) -> tuple[str, ...]:
    lang = grammar(record_of(language).grammar or "")
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


def _offside_wrap(text: str, header: str) -> tuple[str, str] | None:
    """Nested headers (Python's `if 1:`) so an indented fragment parses as a block."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if not lines:
        return None
    first = width(lines[0])
    if first == 0:
        return None
    levels = sorted({w for w in map(width, lines) if 0 < w <= first})
    heads = [" " * (levels[i - 1] if i else 0) + header + "\n" for i in range(len(levels))]
    return "".join(heads), ""


def _base(text: str, language: str) -> tuple[str, str]:
    """The wrapper every parse gets: the prelude a fragment lacks (PHP's `<?php`)."""
    shows, prelude = record_of(language).fragments.prelude
    return (prelude, "") if prelude and shows not in text else ("", "")


def _wrappers(text: str, language: str) -> list[tuple[str, str]]:
    fragments = record_of(language).fragments
    found = [_base(text, language)]
    if fragments.offside_header:
        found += [w for w in [_offside_wrap(text, fragments.offside_header)] if w]
    for wrap in (fragments.class_wrap, fragments.function_wrap):
        if wrap is not None:
            found.append(wrap)
    return found


def _parse_with(text: str, language: str, wrap: tuple[str, str]) -> Parsed:
    prefix, suffix = wrap
    data = text.encode("utf-8")
    tree = _parser(language).parse(prefix.encode() + data + suffix.encode())
    root = tree.root_node
    return Parsed(root, data, len(prefix.encode()), prefix.count("\n"), _count_errors(root))


# Error counts of the texts parsed lately: a compression step parses the text it starts
# from, then `guarded` asks the counts of that text and of its result, wrapped and raw; a
# parse records both of its text's counts, so each text is parsed once, not three times.
_ERRORS: BoundedCache[int] = BoundedCache(4096)
BEST, RAW = "best", "raw"


def parse(text: str, language: str) -> Parsed:
    """The parse of text with the fewest errors among a few wrappers (raw first)."""
    best: Parsed | None = None
    for wrap in _wrappers(text, language):
        parsed = _parse_with(text, language, wrap)
        if best is None:  # the first wrapper is the raw one (`_base`)
            _remember(text, language, RAW, parsed.errors)
        if best is None or parsed.errors < best.errors:
            best = parsed
        if best.errors == 0:
            break
    assert best is not None
    _remember(text, language, BEST, best.errors)
    return best


def _remember(text: str, language: str, kind: str, errors: int) -> None:
    _ERRORS.get((text, language, kind), lambda: errors)


def parse_errors(text: str, language: str) -> int:
    """ERROR/MISSING nodes in text's best parse (a fragment is wrapped to parse in context)."""
    return _ERRORS.get((text, language, BEST), lambda: parse(text, language).errors)


def raw_parse_errors(text: str, language: str) -> int:
    """ERROR/MISSING nodes when text is parsed exactly as given."""
    return _ERRORS.get(
        (text, language, RAW), lambda: _parse_with(text, language, _base(text, language)).errors
    )


def guarded(before: str, after: str, language: str) -> bool:
    """True when after holds no more parse errors than before, wrapped or raw."""
    if parse_errors(after, language) > parse_errors(before, language):
        return False
    return raw_parse_errors(after, language) <= raw_parse_errors(before, language)


def string_rows(
    parsed: Parsed, language: str, comments: dict[int, int] | None = None
) -> tuple[set[int], set[int]]:
    """Rows that begin inside a string (or a block comment), and rows that end inside a
    string; `comments` is `comment_rows` of the same parse when the caller has it already."""
    begin_inside: set[int] = set()
    end_inside: set[int] = set()
    for node in captures(language, _string_kinds(language), parsed.root):
        first, last = parsed.rows(node)
        if last > first:
            begin_inside.update(range(first + 1, last + 1))
            end_inside.update(range(first, last))
    if comments is None:
        comments = comment_rows(parsed, language)
    begin_inside.update(comments)  # keep a block comment's shape
    return begin_inside, end_inside


def comment_rows(parsed: Parsed, language: str) -> dict[int, int]:
    """Each row that begins inside a block comment, mapped to the row the comment opens on."""
    inside: dict[int, int] = {}
    for node in captures(language, comment_kinds(language), parsed.root):
        first, last = parsed.rows(node)
        last -= node.end_point.column == 0  # a line comment that holds its newline
        inside.update(dict.fromkeys(range(first + 1, last + 1), first))
    return inside
