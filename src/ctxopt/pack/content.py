"""The text of a chunk at each fidelity, and its token cost in the prompt."""

from __future__ import annotations

from ctxopt.languages import TEXT, by_name
from ctxopt.languages.record import Family
from ctxopt.pack import prompt_tokens
from ctxopt.pack.compress import Level, compress, signature_stub
from ctxopt.pack.compress.markers import marker, shows_code
from ctxopt.pack.labels import chunk_place
from ctxopt.pack.render_cache import RENDERS
from ctxopt.pack.select import Render
from ctxopt.types import Chunk, ChunkKind, Fidelity

ENTRY_OVERHEAD = 12  # label line and code fence around each entry (select.MIN_ENTRY).  It
# undercounts a label (about 20 tokens with fences): a selection that overfills and then
# drops its lowest-scored entries covered more changed lines on the retrieval benchmark
# than one that stops at an exact estimate (ky, 80 cases: 0.757 against 0.738 at 16k).


HEAD_CHARS = 20  # a stub shows its declaration when it holds the signature's start


def excerpt_content(chunk: Chunk, lines: tuple[int, int], level: Level) -> str:
    """The chunk's first line, then lines first..last, with markers for what is left out."""
    first, last = lines
    rows = chunk.text.split("\n")
    body = "\n".join(rows[first - chunk.start_line : last - chunk.start_line + 1])
    shown = compress(body, shown_language(chunk), level, start_line=first)
    body_rows = [r for r in body.split("\n") if r.strip()] or [""]
    indent = body_rows[0][: len(body_rows[0]) - len(body_rows[0].lstrip())]
    parts: list[str] = []
    if first > chunk.start_line:
        parts.append(rows[0])
        if first > chunk.start_line + 1:
            parts.append(marker(chunk.start_line + 1, first - 1, chunk.language, indent))
    parts.append(shown)
    if last < chunk.end_line:
        parts.append(marker(last + 1, chunk.end_line, chunk.language, indent))
    return "\n".join(parts)


def chunk_content(
    chunk: Chunk, fidelity: Fidelity, level: Level, lines: tuple[int, int] | None = None
) -> str:
    """What the prompt shows of a chunk at a fidelity (never raises)."""
    if fidelity == Fidelity.EXCERPT and lines is not None:
        return excerpt_content(chunk, lines, level)
    if fidelity == Fidelity.FULL:
        return compress(chunk.text, shown_language(chunk), level, start_line=chunk.start_line)
    if fidelity == Fidelity.SIGNATURE:
        return signature_content(chunk)
    if fidelity == Fidelity.STUB:
        line = chunk.signature or next((ln for ln in chunk.text.splitlines() if ln.strip()), "")
        return clipped_stub(line.strip())
    return ""


def shown_language(chunk: Chunk) -> str:
    """The language a chunk's text is compressed as: a documentation chunk of a code file (a
    long comment: a plugin's guide, a crate's `//!` text, a licence) is compressed as plain
    text, since dropping its comments would leave nothing of it to show."""
    record = by_name(chunk.language)
    if chunk.kind is ChunkKind.DOC and record is not None and record.family is Family.CODE:
        return TEXT.name
    return chunk.language


STUB_CHARS = 200  # a stub longer than this (a signature of many parameters) is clipped


def clipped_stub(line: str) -> str:
    """A stub of at most about STUB_CHARS characters: a longer one ends after its last whole
    parameter in reach (a comma outside any brackets but the parameter list's) with " ..." for
    the rest, not in the middle of a type."""
    if len(line) <= STUB_CHARS:
        return line
    depth, cut = 0, -1
    for at, char in enumerate(line[:STUB_CHARS]):
        if char in "([{<":
            depth += 1
        elif char in ")]}>" and depth:
            depth -= 1
        elif char == "," and depth <= 1:
            cut = at
    head = line[: cut + 1] if cut > STUB_CHARS // 2 else line[:STUB_CHARS].rstrip()
    return head + " ..."


def signature_content(chunk: Chunk) -> str:
    """The chunk's signatures and docs; when that shows no declaration (a type alias or a
    struct is all body, so its stub is only a marker or a doc comment), the declaration's
    line and one marker for the rest: an entry never costs tokens without showing code."""
    if chunk.summary:
        return chunk.text
    stub = signature_stub(chunk.text, chunk.language, start_line=chunk.start_line)
    head = " ".join(chunk.signature.split())[:HEAD_CHARS]
    if shows_code(stub) and head in " ".join(stub.split()):
        return stub
    return declaration_line(chunk, head)


def declaration_line(chunk: Chunk, head: str) -> str:
    """The line that declares the chunk (the first holding its signature, else the first
    line of code), and a marker for the lines after it."""
    rows = chunk.text.split("\n")
    filled = [i for i, row in enumerate(rows) if row.strip()]
    if not filled:
        return ""
    start = " ".join(head.split()[:2])
    at = next((i for i in filled if start and start in " ".join(rows[i].split())), filled[0])
    line = rows[at]
    if at >= filled[-1]:
        return line
    last = chunk.start_line + filled[-1]
    indent = line[: len(line) - len(line.lstrip())]
    return line + "\n" + marker(chunk.start_line + at + 1, last, chunk.language, indent)


def make_renderer(level: Level) -> Render:
    """A cached (chunk, fidelity, lines) -> (content, token cost) function for selection
    (kept across calls by content in `render_cache`)."""

    def render(
        chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None
    ) -> tuple[str, int]:
        return RENDERS.rendered(
            chunk, fidelity, level, lines, lambda: rendered(chunk, fidelity, level, lines)
        )

    return render


def rendered(
    chunk: Chunk, fidelity: Fidelity, level: Level, lines: tuple[int, int] | None = None
) -> tuple[str, int]:
    """A chunk's content at a fidelity and its cost as an entry (no cache)."""
    content = chunk_content(chunk, fidelity, level, lines)
    place = f"{chunk_place(chunk)} {chunk.qualified_name}"
    return content, prompt_tokens.count(content or place) + ENTRY_OVERHEAD
