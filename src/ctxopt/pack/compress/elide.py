"""Aggressive compression and signature stubs: which rows of a chunk survive, then markers.

Signatures, docstrings and the key lines of bodies (exits, control-flow headers, calls)
are kept; each run of elided rows becomes one marker naming the original line range.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ctxopt.pack.compress.comments import light
from ctxopt.pack.compress.kinds import (
    CLAUSE_TOKENS,
    CLOSERS,
    CONTAINERS,
    CONTROL_TOKENS,
    FUNCS,
    TRANSPARENT,
    body_of,
    defines,
    definition_in,
    is_docstring,
    kind_of,
    leaves,
    named_row,
    statements,
    tokens_of,
)
from ctxopt.pack.compress.layout import relayout
from ctxopt.pack.compress.markers import apply_elision, marker
from ctxopt.pack.compress.parsing import (
    Parsed,
    captures,
    guarded,
    parse,
    record_of,
    string_rows,
)

if TYPE_CHECKING:
    from tree_sitter import Node

# Aggressive keeps a plain statement block whole when it would elide more than this share
# of its non-blank rows and holds at least _SEVERAL statements (through wrappers).
_MAX_ELIDED_SHARE = 0.9
_SEVERAL = 3
# A statement's head is its first row, and the rows down to the one that names it when
# annotations above take at most this many rows.
_ANNOTATION_ROWS = 3


class _Elider:
    """Plans which rows of a chunk survive aggressive compression or stubbing."""

    def __init__(self, parsed: Parsed, lines: list[str], language: str, *, stub: bool) -> None:
        self.p, self.lines, self.language, self.stub = parsed, lines, language, stub
        self.elided: set[int] = set()
        self.begins, _ = string_rows(parsed, language)

    def run(self) -> set[int]:
        members = list(self._top_members(self.p.root))
        if defines(members):
            self._members(members)
        elif members:
            self._statement_block(members, docstring=frozenset())
            if not self.stub and self._too_thin(members):
                self.elided.clear()  # keep declarations, trim only long ones
                self._members(members)
        return self.elided

    def _too_thin(self, members: list[Node]) -> bool:
        """True when several top-level statements would shrink to almost nothing.

        A file held in one wrapper (``#ifdef __cplusplus extern "C" {`` closed in a
        later ``#ifdef``) parses as one long statement whose head alone would survive.
        """
        if len(leaves(members)) < _SEVERAL:
            return False
        lo, hi = self.p.rows(members[0])[0], max(self.p.rows(m)[1] for m in members)
        rows = range(max(lo, 0), min(hi + 1, len(self.lines)))
        filled = [r for r in rows if self.lines[r].strip()]
        cut = sum(r in self.elided for r in filled)
        return bool(filled) and cut > _MAX_ELIDED_SHARE * len(filled)

    def _top_members(self, node: Node) -> Iterator[Node]:
        for child in node.named_children:
            start, end = self.p.span(child)
            if start >= 0 and end <= len(self.p.data):
                yield child
            elif end > 0 and start < len(self.p.data):
                yield from self._top_members(child)

    def _members(self, members: list[Node]) -> None:
        for member in members:
            found = definition_in(member)
            if found is None and member.type in TRANSPARENT:
                self._members(list(member.named_children))
            elif found is None:
                self._trim_long(member)
            elif found.type in CONTAINERS:
                body = body_of(found)
                if body is not None:
                    self._members(statements(body))
            else:
                self._function(found)

    def _trim_long(self, node: Node) -> None:
        first, last = self.p.rows(node)
        if last - first >= 3 and (first + 1) not in self.begins:
            self.elided.update(range(first + 1, last + 1))

    def _function(self, func: Node) -> None:
        body = body_of(func)
        if body is None:
            return
        stmts = statements(body)
        if not stmts or self.p.rows(stmts[0])[0] <= self.p.rows(func)[0]:
            return
        record = record_of(self.language)
        self._statement_block(stmts, docstring=record.outline.docstrings)

    def _statement_block(self, stmts: list[Node], *, docstring: frozenset[str]) -> None:
        lo, hi = self.p.rows(stmts[0])[0], max(self.p.rows(s)[1] for s in stmts)
        keep: set[int] = set()
        if docstring and is_docstring(stmts[0], docstring):
            keep.update(range(lo, self.p.rows(stmts[0])[1] + 1))
        if not self.stub:
            keep |= self._select(stmts, hi - lo + 1)
        self.elided.update(r for r in range(lo, hi + 1) if r not in keep)

    def _select(self, stmts: list[Node], span: int) -> set[int]:
        cap = max(3, math.ceil(span * 0.3))
        items = sorted(self._items(stmts), key=lambda item: item[0])
        keep: set[int] = set()
        for _, rows in items:
            if len(keep | rows) <= cap:
                keep |= rows
        return keep

    def _items(self, stmts: list[Node]) -> Iterator[tuple[tuple[int, int], set[int]]]:
        priority = {"exit": 0, "control": 1, "def": 2, "call": 2}
        for index, stmt in enumerate(stmts):
            kind = kind_of(stmt)
            if kind == "control":
                yield (1, index), {self.p.rows(stmt)[0]}
                yield (1, index), self._control_rows(stmt)
            elif kind in priority:
                yield (priority[kind], index), self._head_rows(stmt, 3 if kind == "exit" else 2)
            elif index == len(stmts) - 1:
                yield (3, index), self._head_rows(stmt, 1)

    def _head_rows(self, node: Node, limit: int) -> set[int]:
        first, last = self.p.rows(node)
        if last - first < limit:
            return set(range(first, last + 1))
        if first + 1 in self.begins:  # never cut a statement inside a string
            return set(range(first, last + 1)) if last - first < 8 else set()
        named = named_row(node) - self.p.prefix_rows  # past annotations: what it declares
        return set(range(first, named + 1)) if named - first <= _ANNOTATION_ROWS else {first}

    def _control_rows(self, stmt: Node) -> set[int]:
        first, last = self.p.rows(stmt)
        rows = {first}
        if last > first and self._closer(self.lines[last]):
            rows.add(last)
        stack, seen = list(stmt.named_children), 0
        while stack and seen < 2000:
            node, seen = stack.pop(), seen + 1
            if node.type in FUNCS or node.type in CONTAINERS:
                continue
            if tokens_of(node) & CLAUSE_TOKENS:
                rows.add(self.p.rows(node)[0])
            if kind_of(node) == "exit" and node.is_named:
                rows.add(self.p.rows(node)[0])
                rows |= self._ancestor_heads(node, stmt)
                continue
            stack.extend(node.named_children)
        return {r for r in rows if 0 <= r < len(self.lines)}

    def _ancestor_heads(self, node: Node, top: Node) -> set[int]:
        rows = set()
        parent = node.parent
        while parent is not None and parent != top:
            if tokens_of(parent) & (CONTROL_TOKENS | CLAUSE_TOKENS):
                first, last = self.p.rows(parent)
                rows.add(first)
                if last > first and 0 <= last < len(self.lines) and self._closer(self.lines[last]):
                    rows.add(last)
            parent = parent.parent
        return rows

    @staticmethod
    def _closer(line: str) -> bool:
        bare = line.strip().rstrip(";,")
        return bool(bare) and (set(bare) <= set("})]") or bare in CLOSERS)


def aggressive(text: str, language: str, *, start_line: int) -> str:
    """Aggressive compression; markers name lines counted from start_line."""
    return _elide(text, language, start_line=start_line, stub=False)


def signatures_only(text: str, language: str, *, start_line: int) -> str:
    """Signatures and docstrings/doc comments only; each body replaced by a marker."""
    return _elide(text, language, start_line=start_line, stub=True)


def _elide(text: str, language: str, *, start_line: int, stub: bool) -> str:
    text = light(text, language, keep_rows=True)  # same rows, so markers keep numbers
    parsed = parse(text, language)
    lines = text.split("\n")
    elided = _Elider(parsed, lines, language, stub=stub).run()
    if stub and not elided:
        return head_stub(text, language, start_line) if len(lines) > 2 else text
    offside = record_of(language).fragments.offside_block
    blocks = _offside_blocks(parsed, language, offside) if offside else []
    cut = apply_elision(lines, elided, language, start_line, blocks=blocks)
    try:
        out = relayout(cut, language)
        return out if guarded(cut, out, language) else cut
    except Exception:
        return cut


def _offside_blocks(parsed: Parsed, language: str, kind: str) -> list[tuple[int, int, int]]:
    """(header row, first row, last row) of each indented block (Python)."""
    found = []
    for node in captures(language, (kind,), parsed.root):
        if node.parent is not None:
            head, (first, last) = parsed.rows(node.parent)[0], parsed.rows(node)
            if first > head:
                found.append((head, first, last))
    return found


def head_stub(text: str, language: str, start_line: int) -> str:
    """The first non-blank line, then one marker for the rest."""
    lines = text.split("\n")
    first = next((i for i, ln in enumerate(lines) if ln.strip()), 0)
    rest = [i for i in range(first + 1, len(lines)) if lines[i].strip()]
    if not rest:
        return text
    end = rest[-1]
    return lines[first] + "\n" + marker(start_line + first + 1, start_line + end, language)
