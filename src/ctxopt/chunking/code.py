"""Declaration walk over a tree-sitter tree: functions, classes (split when large), module gaps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from posixpath import basename, splitext

from tree_sitter import Node, Tree

from ctxopt import tokens
from ctxopt.chunking.classify import Decl, body, classify_at, decl_body
from ctxopt.chunking.draft import Draft
from ctxopt.chunking.lines import split_range, trim
from ctxopt.chunking.nodes import end_row, line_of, signature, signature_end_row, text_of
from ctxopt.chunking.symbols import clean_comment, clean_docstring, constant_names
from ctxopt.languages import Language, Syntax
from ctxopt.languages.naming import (
    has_test_mark,
    is_test_class_name,
    is_test_function_name,
    is_test_path,
)
from ctxopt.types import ChunkKind

CLASS_SPLIT_TOKENS = 2000
MODULE_TARGET_LINES = 150
DOC_RUN_LINES = 10  # this many comment lines in a row among module code are a doc chunk
SUMMARY_FIELD_LINES = 6
SURE_BYTES_PER_TOKEN = 8  # code averages about 4 bytes a token


@dataclass
class _Walk:
    path: str
    language: Language
    spec: Syntax
    source: bytes
    lines: list[str]
    test_file: bool
    drafts: list[Draft] = field(default_factory=list)


def code_drafts(
    path: str, language: Language, lines: list[str], tree: Tree, source: bytes
) -> list[Draft]:
    """Drafts for every declaration of a parsed code file plus module chunks for the rest.

    source is the file's text encoded as UTF-8 (what the tree was parsed from); lines are its
    lines (chunking/numbering.py).
    """
    walk = _Walk(
        path=path,
        language=language,
        spec=_syntax(language),
        source=source,
        lines=lines,
        test_file=is_test_path(path),
    )
    _walk_items(walk, tree.root_node.named_children, prefix="", floor=0)
    walk.drafts.extend(_module_drafts(walk, _comment_rows(walk, tree.root_node.named_children)))
    walk.drafts.sort(key=lambda d: (d.start, -d.end))
    return walk.drafts


def _syntax(language: Language) -> Syntax:
    if language.syntax is None:
        raise ValueError(f"{language.name} has no declaration syntax")
    return language.syntax


def _flatten(spec: Syntax, nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        if node.type in spec.groups:
            out.extend(_flatten(spec, node.named_children))
        else:
            out.append(node)
    return out


def _span(walk: _Walk, node: Node) -> tuple[int, int]:
    return line_of(node.start_point[0]), line_of(end_row(node))


def _walk_items(walk: _Walk, nodes: list[Node], prefix: str, floor: int) -> None:
    """Emit drafts for the declarations among sibling nodes (top level or a namespace body)."""
    items = _flatten(walk.spec, nodes)
    for index, node in enumerate(items):
        decl = classify_at(walk.spec, items, index, walk.source)
        if decl is None:
            continue
        start, end = _decl_span(walk, node, decl)
        start, comments = _attached(walk, items, index, start, floor)
        if decl.role == "namespace":
            _walk_namespace(walk, decl, prefix, "", start)
        elif decl.role == "class":
            _emit_class(walk, decl, (start, end), comments, prefix, "")
        else:
            _emit_leaf(walk, decl, (start, end), comments, prefix, "")
        floor = max(floor, end)


def _walk_namespace(walk: _Walk, decl: Decl, prefix: str, parent_q: str, floor: int) -> None:
    """The declarations in a namespace's body (a C++ namespace, a `describe` of tests), named
    under it (a namespace of no name adds nothing)."""
    inner = f"{_qualify(prefix, parent_q, decl.name)}." if decl.name else prefix
    block = body(walk.spec, decl)
    _walk_items(walk, block.named_children if block is not None else [], inner, floor)


def _decl_span(walk: _Walk, node: Node, decl: Decl) -> tuple[int, int]:
    """The lines of a declaration, through its block where that ends later (a C macro's) and
    through the closing directives right below it (`#endif`)."""
    start, end = _span(walk, node)
    if decl.block is not None:
        end = max(end, _span(walk, decl.block)[1])
    return start, _closers_below(walk, end)


def _closers_below(walk: _Walk, end: int) -> int:
    """end moved down over the closing directive lines right below it."""
    directives = walk.language.directives
    while directives is not None and end < len(walk.lines):
        if not directives.closes.match(walk.lines[end]):
            break
        end += 1
    return end


def _openers_above(walk: _Walk, start: int, floor: int) -> int:
    """start moved up over the opening directive lines right above it (`#ifdef X`, `#else`),
    never to floor or above."""
    directives = walk.language.directives
    while directives is not None and start - 1 > floor:
        if not directives.opens.match(walk.lines[start - 2]):
            break
        start -= 1
    return start


def _attached(
    walk: _Walk, items: list[Node], index: int, start: int, floor: int
) -> tuple[int, list[Node]]:
    """Move start up over comments / attributes / opening directives directly above
    items[index]."""
    comments: list[Node] = []
    j = index - 1
    while True:
        below = start
        start = _openers_above(walk, start, floor)
        while j >= 0 and start <= _span(walk, items[j])[0] <= _span(walk, items[j])[1] < below:
            j -= 1  # a node on the directive lines just taken (the name `#ifdef` tests)
        if j < 0 or items[j].type not in walk.language.attached:
            break
        above_start, above_end = _span(walk, items[j])
        apart = above_end < start - 1 and (
            comments or not _doc_block(walk, items[j], (above_start, above_end), start)
        )
        if apart or above_start <= floor:
            break
        start = above_start
        if "comment" in items[j].type:
            comments.insert(0, items[j])
        j -= 1
    return start, comments


_DOC_BLOCK = re.compile(r"/\*\*\s")  # `/** text` or `/**` and a newline; not a `/*****` banner


def _doc_block(walk: _Walk, node: Node, span: tuple[int, int], start: int) -> bool:
    """A `/** ... */` block (at lines span) one blank line above a declaration starting at
    start (express's style) documents it; one that opens the file is its header (a licence),
    not the first declaration's."""
    above_start, above_end = span
    return (
        above_end == start - 2
        and above_start > 1
        and not walk.lines[above_end].strip()
        and _DOC_BLOCK.match(text_of(walk.source, node)) is not None
    )


def _docstring(walk: _Walk, node: Node, comments: list[Node]) -> str:
    if walk.language.docstring_in_body:
        body = decl_body(walk.spec, node)
        first = body.named_children[0] if body is not None and body.named_children else None
        if first is not None and first.type == "expression_statement" and first.named_children:
            first = first.named_children[0]
        if first is not None and first.type == "string":
            return clean_docstring(text_of(walk.source, first))
    return clean_comment("\n".join(text_of(walk.source, c) for c in comments))


def _test_kind(walk: _Walk, kind: ChunkKind, name: str, head: str) -> ChunkKind:
    is_function = kind in (ChunkKind.FUNCTION, ChunkKind.METHOD)
    if is_function and (walk.test_file or is_test_function_name(name) or has_test_mark(head)):
        return ChunkKind.TEST
    if kind == ChunkKind.CLASS and (walk.test_file or is_test_class_name(name)):
        return ChunkKind.TEST
    return kind


def _head(walk: _Walk, start: int, node: Node) -> str:
    """The lines from a chunk's start through its declaration's first line."""
    return "\n".join(walk.lines[start - 1 : line_of(node.start_point[0])])


def _qualify(prefix: str, parent_q: str, name: str) -> str:
    """A name under its owner's; a label that starts with a dot (`describe('.send()')` in
    `describe('res')`) joins with one dot: `res.send()`."""
    owner = f"{parent_q}." if parent_q else prefix
    return f"{owner}{name[1:]}" if owner.endswith(".") and name.startswith(".") else owner + name


def _emit_leaf(
    walk: _Walk, decl: Decl, span: tuple[int, int], comments: list[Node], prefix: str, parent_q: str
) -> None:
    """A function, method, type alias or test call: one chunk."""
    if not parent_q and decl.parent:
        parent_q = f"{prefix}{decl.parent}"
    if decl.role == "leaf":
        kind = ChunkKind(decl.kind)
    elif decl.role == "test":
        kind = ChunkKind.TEST
    else:
        kind = ChunkKind.METHOD if parent_q else ChunkKind.FUNCTION
    kind = _test_kind(walk, kind, decl.name, _head(walk, span[0], decl.node))
    qualified = _qualify(prefix, parent_q, decl.name)
    sig = signature(walk.source, decl.node, body(walk.spec, decl))
    doc = _docstring(walk, decl.node, comments)
    draft = Draft(kind, decl.name, qualified, span[0], span[1], sig, doc, (qualified,), parent_q)
    walk.drafts.append(draft)


@dataclass(frozen=True)
class _Member:
    decl: Decl | None  # None for fields and other non-declarations
    node: Node
    span: tuple[int, int]
    comments: list[Node]


def _members(walk: _Walk, class_body: Node | None, floor: int) -> list[_Member]:
    items = _flatten(walk.spec, class_body.named_children) if class_body is not None else []
    out: list[_Member] = []
    taken: Node | None = None  # the block a member before declared with
    for index, node in enumerate(items):
        if node == taken:
            continue
        decl = classify_at(walk.spec, items, index, walk.source)
        if decl is None:
            out.append(_Member(None, node, _span(walk, node), []))
            continue
        taken = decl.block
        start, end = _decl_span(walk, node, decl)
        start, comments = _attached(walk, items, index, start, floor)
        out.append(_Member(decl, node, (start, end), comments))
        floor = max(floor, end)
    return out


def _emit_class(
    walk: _Walk, decl: Decl, span: tuple[int, int], comments: list[Node], prefix: str, parent_q: str
) -> None:
    """A class: one chunk when small, else a summary chunk plus one chunk per member."""
    qualified = _qualify(prefix, parent_q, decl.name)
    kind = _test_kind(walk, ChunkKind(decl.kind), decl.name, "")
    class_body = body(walk.spec, decl)
    comment_rows = _comment_rows(walk, decl.node.children)
    header_end = _header_before_comments(
        walk, comment_rows, span[0], line_of(signature_end_row(walk.source, decl.node, class_body))
    )
    members = _members(walk, class_body, header_end)
    sig = signature(walk.source, decl.node, class_body)
    doc = _docstring(walk, decl.node, comments)
    text = "\n".join(walk.lines[span[0] - 1 : span[1]])
    big = _over_split_limit(text)
    if not big:
        inner = tuple(
            f"{qualified}.{m.decl.name}"
            for m in members
            if m.decl is not None and m.decl.role not in ("namespace", "test")
        )
        draft = Draft(
            kind, decl.name, qualified, span[0], span[1], sig, doc, (qualified, *inner), parent_q
        )
        walk.drafts.append(draft)
        return
    shown = _summary_lines(walk, span, header_end, members)
    summary = "\n".join(walk.lines[n - 1] for n in sorted(shown))
    walk.drafts.append(
        Draft(
            kind, decl.name, qualified, span[0], span[1], sig, doc, (qualified,), parent_q, summary
        )
    )
    first_member = len(walk.drafts)
    for member in members:
        if member.decl is None:
            continue
        if member.decl.role == "class":
            _emit_class(walk, member.decl, member.span, member.comments, prefix, qualified)
        elif member.decl.role == "namespace":
            _walk_namespace(walk, member.decl, f"{qualified}.", qualified, member.span[0])
        else:
            _emit_leaf(walk, member.decl, member.span, member.comments, prefix, qualified)
    held = [(d.start, d.end) for d in walk.drafts[first_member:]]
    walk.drafts.extend(
        _body_gap_drafts(
            walk, decl.name, qualified, (header_end + 1, span[1]), held, shown, comment_rows
        )
    )


def _header_before_comments(walk: _Walk, rows: frozenset[int], start: int, header_end: int) -> int:
    """header_end moved up over a run of at least DOC_RUN_LINES comment lines (rows: the
    declaration's own comment lines) that ends the header: in Ruby a plugin's guide written
    between `module RodaPlugins` and the plugin's own module is a child of the outer module
    before its body, so without the cut every outline of the file would repeat the whole guide."""
    end, count = header_end, 0
    while end > start and _comment_or_blank(walk, rows, end):
        count += end in rows
        end -= 1
    return end if count >= DOC_RUN_LINES else header_end


def _over_split_limit(text: str) -> bool:
    """True when text has more than CLASS_SPLIT_TOKENS tokens (exact count only when in doubt)."""
    size = len(text.encode("utf-8", "replace"))
    if size <= CLASS_SPLIT_TOKENS:  # a token is at least one byte
        return False
    if size >= CLASS_SPLIT_TOKENS * SURE_BYTES_PER_TOKEN:
        return True
    return tokens.count(text) > CLASS_SPLIT_TOKENS


def _summary_lines(
    walk: _Walk, span: tuple[int, int], header_end: int, members: list[_Member]
) -> set[int]:
    """The lines of a class summary: header, fields and docstring, and each member's
    signature lines (no bodies)."""
    keep: set[int] = set(range(span[0], header_end + 1))
    last = header_end
    for member in members:
        start, end = member.span
        last = max(last, end)
        if member.decl is not None:
            sig_end = _header_before_comments(
                walk,
                _comment_rows(walk, member.decl.node.children),
                start,
                line_of(
                    signature_end_row(walk.source, member.decl.node, body(walk.spec, member.decl))
                ),
            )
            keep.update(range(start, sig_end + 1))
        elif member.node.type in walk.language.attached:
            continue
        elif member.node.type in ("string", "expression_statement"):
            keep.update(range(start, end + 1))
        else:
            keep.update(range(start, min(end, start + SUMMARY_FIELD_LINES - 1) + 1))
    if span[1] > last:
        keep.add(span[1])
    return {n for n in keep if span[0] <= n <= span[1]}


def _body_gap_drafts(
    walk: _Walk,
    name: str,
    qualified: str,
    body: tuple[int, int],
    held: list[tuple[int, int]],
    shown: set[int],
    comment_rows: frozenset[int],
) -> list[Draft]:
    """Chunks for the code of a summarised class that no member chunk holds (held) and its
    summary does not show whole (shown): a long table assigned in the body, the set-up of a
    Ruby `context "..." do` block, a long guide in comments (comment_rows), which is a
    documentation chunk of its own.
    Without them those lines would be in no chunk a pack could show."""
    drafts: list[Draft] = []
    gaps = _uncovered(held, *body)
    for first, last in (part for g in gaps for part in _comment_runs(walk, comment_rows, *g)):
        if all(n in shown or not walk.lines[n - 1].strip() for n in range(first, last + 1)):
            continue
        for start, end in _pieces(walk, first, last):
            if _only_comments(walk, comment_rows, start, end):
                drafts.append(
                    Draft(ChunkKind.DOC, name, qualified, start, end, parent=qualified, code=False)
                )
                continue
            text = "\n".join(walk.lines[start - 1 : end])
            drafts.append(
                Draft(
                    ChunkKind.MODULE, name, qualified, start, end,
                    defines=constant_names(text), parent=qualified,
                )
            )  # fmt: skip
    return drafts


def _comment_rows(walk: _Walk, nodes: list[Node]) -> frozenset[int]:
    """The lines (1-based) that hold nothing but a top-level comment: not a namespace's
    closing `}  // namespace geo`."""
    kinds = frozenset(walk.language.comment_kinds)
    rows: set[int] = set()
    for node in nodes:
        if node.type not in kinds:
            continue
        first, last = _span(walk, node)
        comment = text_of(walk.source, node).splitlines() or [""]
        if walk.lines[first - 1].strip() != comment[0].strip():
            first += 1  # code before the comment on its first line
        if last > first and walk.lines[last - 1].strip() != comment[-1].strip():
            last -= 1  # code after it on its last line
        rows.update(range(first, last + 1))
    return frozenset(rows)


def _module_drafts(walk: _Walk, comment_rows: frozenset[int]) -> list[Draft]:
    """Module chunks for the non-blank lines no declaration chunk covers. A long run of
    comments (a Rust crate's `//!` guide, a licence, code commented out) is a piece of its
    own, and a piece that is only comments is documentation: it shows no code."""
    ranges = [(d.start, d.end) for d in walk.drafts]
    stem = splitext(basename(walk.path))[0]
    qualified = splitext(walk.path)[0].replace("/", ".")
    drafts: list[Draft] = []
    stretches = _uncovered(ranges, 1, len(walk.lines))
    for first, last in (part for s in stretches for part in _comment_runs(walk, comment_rows, *s)):
        for start, end in _pieces(walk, first, last):
            if _only_comments(walk, comment_rows, start, end):
                drafts.append(Draft(ChunkKind.DOC, stem, qualified, start, end, code=False))
                continue
            text = "\n".join(walk.lines[start - 1 : end])
            drafts.append(
                Draft(ChunkKind.MODULE, stem, qualified, start, end, defines=constant_names(text))
            )
    return drafts


def _comment_runs(
    walk: _Walk, comment_rows: frozenset[int], first: int, last: int
) -> list[tuple[int, int]]:
    """first..last cut before and after each run of at least DOC_RUN_LINES comment lines (a
    licence, a guide), so the run is a chunk of its own; shorter comments stay with their code."""
    parts: list[tuple[int, int]] = []
    cursor = row = first
    while row <= last:
        if row not in comment_rows:
            row += 1
            continue
        run_end, count, scan = row, 0, row
        while scan <= last and _comment_or_blank(walk, comment_rows, scan):
            if scan in comment_rows:
                run_end, count = scan, count + 1
            scan += 1
        if count >= DOC_RUN_LINES:
            parts += [(cursor, row - 1)] if row > cursor else []
            parts.append((row, run_end))
            cursor = run_end + 1
        row = scan
    return [*parts, (cursor, last)] if cursor <= last else parts


def _only_comments(walk: _Walk, comment_rows: frozenset[int], start: int, end: int) -> bool:
    return all(_comment_or_blank(walk, comment_rows, row) for row in range(start, end + 1))


def _comment_or_blank(walk: _Walk, comment_rows: frozenset[int], row: int) -> bool:
    return row in comment_rows or not walk.lines[row - 1].strip()


def _uncovered(ranges: list[tuple[int, int]], first: int, last: int) -> list[tuple[int, int]]:
    """The stretches of lines first..last that none of the ranges (inclusive) covers."""
    gaps: list[tuple[int, int]] = []
    cursor = first
    for start, end in sorted(ranges):
        if start > cursor:
            gaps.append((cursor, min(start - 1, last)))
        cursor = max(cursor, end + 1)
        if cursor > last:
            break
    if cursor <= last:
        gaps.append((cursor, last))
    return [(a, b) for a, b in gaps if a <= b]


def _pieces(walk: _Walk, first: int, last: int) -> list[tuple[int, int]]:
    """A stretch without its blank edges, cut into pieces of about MODULE_TARGET_LINES."""
    span = trim(walk.lines, first, last)
    if span is None:
        return []
    return split_range(walk.lines, span[0], span[1], MODULE_TARGET_LINES)
