"""Turning drafts into Chunk records: long-chunk splitting, ids, counts and symbols."""

from __future__ import annotations

import hashlib

from ctxopt import tokens
from ctxopt.chunking.draft import Draft
from ctxopt.chunking.lines import HEAVY_LINES, MAX_CHUNK_LINES, split_range
from ctxopt.chunking.symbols import code_facts, code_only
from ctxopt.types import Chunk, ChunkKind

BATCH_CHARS = 400_000
PIECE_LINES = 80  # lines per piece of a split chunk
HEAVY_CHARS = 6_000  # a chunk over HEAVY_LINES lines and this heavy (~1,500 tokens) is split
HEAVY_MODULE_LINES = PIECE_LINES * 3 // 2  # ... a module chunk over this many lines
_GAP_KINDS = (ChunkKind.MODULE, ChunkKind.DOC)  # what no declaration covers: module code, comments


def _piece_lines(draft: Draft, lines: list[str]) -> int | None:
    """Lines per piece for a draft too long to retrieve or pack whole; None keeps it whole.

    Over MAX_CHUNK_LINES lines it is always cut; a long and heavy body (many lines and
    characters, so well over a thousand tokens) is cut into PIECE_LINES-line pieces too,
    so retrieval can point at the part a task is about and a small budget can hold it.
    Module code and comments (what no declaration covers: a long help text or script template
    held in a constant, a guide) are cut from HEAVY_MODULE_LINES lines on, as their windows
    are already cut at HEAVY_LINES lines.
    """
    if draft.summary_text is not None:
        return None
    count = draft.end - draft.start + 1
    if count > MAX_CHUNK_LINES:
        return PIECE_LINES
    if count > (HEAVY_MODULE_LINES if draft.kind in _GAP_KINDS else HEAVY_LINES):
        chars = sum(len(line) for line in lines[draft.start - 1 : draft.end])
        if chars > HEAVY_CHARS:
            return PIECE_LINES
    return None


def split_long(drafts: list[Draft], lines: list[str]) -> list[Draft]:
    """Cut long drafts into consecutive pieces (name#2, name#3...)."""
    out: list[Draft] = []
    for draft in drafts:
        target = _piece_lines(draft, lines)
        if target is None:
            out.append(draft)
            continue
        pieces = split_range(lines, draft.start, draft.end, target)
        for number, (start, end) in enumerate(pieces, 1):
            suffix = f"#{number}" if number > 1 else ""
            out.append(
                Draft(
                    kind=draft.kind,
                    name=draft.name + suffix,
                    qualified_name=draft.qualified_name + suffix,
                    start=start,
                    end=end,
                    signature=draft.signature,
                    docstring=draft.docstring if number == 1 else "",
                    defines=draft.defines if number == 1 else (),
                    parent=draft.parent,
                    code=draft.code,
                )
            )
    return out


def chunk_id(path: str, kind: ChunkKind, qualified_name: str, occurrence: int) -> str:
    key = f"{path}\0{kind.value}\0{qualified_name}\0{occurrence}"
    return hashlib.sha1(key.encode("utf-8", "replace")).hexdigest()


def _counts(texts: list[str]) -> list[int]:
    """Exact counts; threads only pay off for large batches."""
    if sum(map(len, texts)) > BATCH_CHARS:
        return tokens.count_many(texts)
    return [tokens.count(text) for text in texts]


def build_chunks(
    path: str, language: str, drafts: list[Draft], lines: list[str], imports: tuple[str, ...]
) -> tuple[Chunk, ...]:
    """Chunks for drafts, in order, with exact token counts batched over the file."""
    texts = [
        d.summary_text if d.summary_text is not None else "\n".join(lines[d.start - 1 : d.end])
        for d in drafts
    ]
    counts = _counts(texts)
    seen: dict[tuple[ChunkKind, str], int] = {}
    chunks: list[Chunk] = []
    for draft, text, count in zip(drafts, texts, counts, strict=True):
        occurrence = seen.get((draft.kind, draft.qualified_name), 0)
        seen[(draft.kind, draft.qualified_name)] = occurrence + 1
        refs, cx = code_facts(code_only(language, text), draft.name) if draft.code else ((), 1)
        chunks.append(
            Chunk(
                id=chunk_id(path, draft.kind, draft.qualified_name, occurrence),
                path=path,
                language=language,
                kind=draft.kind,
                name=draft.name,
                qualified_name=draft.qualified_name,
                signature=draft.signature,
                docstring=draft.docstring,
                start_line=draft.start,
                end_line=draft.end,
                text=text,
                tokens=count,
                content_hash=hashlib.sha1(text.encode("utf-8", "replace")).hexdigest(),
                imports=imports,
                defines=draft.defines,
                references=refs,
                complexity=cx,
                parent=draft.parent,
                summary=draft.summary_text is not None,
            )
        )
    return tuple(chunks)
