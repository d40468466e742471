"""Light compression: plain comments dropped, doc comments, docstrings and markers kept."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxopt.languages import DocStyle, by_name
from ctxopt.pack.compress.markers import is_marker
from ctxopt.pack.compress.parsing import Parsed, captures, comment_kinds, guarded, parse

if TYPE_CHECKING:
    from tree_sitter import Node


def _is_doc_comment(node: Node, body: bytes, language: str, start: int) -> bool:
    if start == 0 and body.startswith(b"#!"):
        return True  # shebang
    record = by_name(language)
    style = record.doc_style if record is not None else DocStyle.SLASH_STAR
    if style in (DocStyle.NONE, DocStyle.DOCSTRING):
        return is_marker(body)
    if body.startswith(b"/**") and not body.startswith(b"/**/"):
        return True
    if body.startswith(b"///") and not body.startswith(b"////"):
        return True
    if body.startswith((b"//!", b"/*!")) or is_marker(body):
        return True
    if style is not DocStyle.ADJACENT or record is None:
        return False
    return _above_declaration(node, record.doc_above, record.comment_kinds)


def _above_declaration(node: Node, kinds: frozenset[str], comments: tuple[str, ...]) -> bool:
    prev, nxt = node, node.next_named_sibling
    while nxt is not None and nxt.type in comments:
        if nxt.start_point.row != prev.end_point.row + 1:
            return False
        prev, nxt = nxt, nxt.next_named_sibling
    if nxt is None or nxt.start_point.row != prev.end_point.row + 1:
        return False
    while nxt.type not in kinds and nxt.named_child_count:  # through body wrappers
        first = nxt.named_children[0]
        if first.start_point != nxt.start_point:
            return False
        nxt = first
    return nxt.type in kinds


def _comment_spans(parsed: Parsed, language: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for node in captures(language, comment_kinds(language), parsed.root):
        start, end = parsed.span(node)
        if start < 0 or end > len(parsed.data):
            continue
        body = parsed.data[start:end]
        if _is_doc_comment(node, body, language, start):
            continue
        while end > start and parsed.data[end - 1 : end] in (b"\n", b"\r"):
            end -= 1
        if spans and start < spans[-1][1]:
            continue  # nested inside a span already taken
        spans.append((start, end))
    return spans


def _deletion(buf: bytearray, start: int, end: int) -> tuple[int, int, bytes]:
    """The byte range to cut for one comment, and what replaces it."""
    line_start = buf.rfind(b"\n", 0, start) + 1
    line_end = buf.find(b"\n", end)
    line_end = len(buf) if line_end < 0 else line_end
    code_before = bool(buf[line_start:start].strip())
    code_after = bool(buf[end:line_end].strip())
    if not code_before and not code_after:
        if line_end < len(buf):
            return line_start, line_end + 1, b""
        return max(line_start - 1, 0), line_end, b""
    stop = end
    while stop < line_end and buf[stop] in b" \t":
        stop += 1
    if not code_after:
        cut = start
        while cut > line_start and buf[cut - 1] in b" \t":
            cut -= 1
        return cut, stop, b""
    if not code_before or buf[start - 1] in b" \t":
        return start, stop, b""
    return start, end, b"\n" if b"\n" in buf[start:end] else b" "


def _light(text: str, language: str, *, keep_rows: bool = False) -> str:
    """Text without its plain comments; keep_rows leaves emptied lines in place."""
    parsed = parse(text, language)
    buf = bytearray(parsed.data)
    for start, end in reversed(_comment_spans(parsed, language)):
        cut, stop, repl = _deletion(buf, start, end)
        if keep_rows:
            repl = b"\n" * buf[cut:stop].count(b"\n") or repl.replace(b"\n", b" ")
        buf[cut:stop] = repl
    return buf.decode("utf-8")


def light(text: str, language: str, *, keep_rows: bool = False) -> str:
    """Light compression; the input is returned if the output parses worse or on any error."""
    try:
        out = _light(text, language, keep_rows=keep_rows)
        return out if guarded(text, out, language) else text
    except Exception:
        return text
