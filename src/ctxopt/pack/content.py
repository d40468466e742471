"""The text of a chunk at each fidelity, and its token cost in the prompt."""

from __future__ import annotations

from collections.abc import Callable

from ctxopt import tokens
from ctxopt.pack.compress import Level, compress, signature_stub
from ctxopt.pack.select import Fidelity
from ctxopt.types import Chunk

ENTRY_OVERHEAD = 12  # label line and code fence around each entry (select.MIN_ENTRY)


def chunk_content(chunk: Chunk, fidelity: Fidelity, level: Level) -> str:
    """What the prompt shows of a chunk at a fidelity (never raises)."""
    if fidelity == Fidelity.FULL:
        return compress(chunk.text, chunk.language, level, start_line=chunk.start_line)
    if fidelity == Fidelity.SIGNATURE:
        if chunk.summary:
            return chunk.text
        return signature_stub(chunk.text, chunk.language, start_line=chunk.start_line)
    if fidelity == Fidelity.STUB:
        line = chunk.signature or next((ln for ln in chunk.text.splitlines() if ln.strip()), "")
        return line.strip()[:200]
    return ""


def make_renderer(level: Level) -> Callable[[Chunk, Fidelity], tuple[str, int]]:
    """A cached (chunk, fidelity) -> (content, token cost) function for selection."""
    cache: dict[tuple[str, Fidelity], tuple[str, int]] = {}

    def render(chunk: Chunk, fidelity: Fidelity) -> tuple[str, int]:
        key = (chunk.id, fidelity)
        if key not in cache:
            content = chunk_content(chunk, fidelity, level)
            place = f"{chunk.path}:{chunk.start_line}-{chunk.end_line} {chunk.qualified_name}"
            cost = tokens.count(content or place) + ENTRY_OVERHEAD
            cache[key] = (content, cost)
        return cache[key]

    return render
