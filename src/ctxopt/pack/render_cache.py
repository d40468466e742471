"""A chunk's text at each fidelity and its token cost, kept across calls by content.

Compressing a chunk parses it with tree-sitter, and its cost is an exact token count: a
long-lived process (`ctxopt mcp`) packs many of the same chunks call after call, so it
keeps both.  The key holds everything the rendering reads (the chunk's text itself, not a
stored hash: a redacted chunk keeps its content hash but not its text), so a changed file
gives new keys and nothing stale is shown.  Least recently used entries go past MAX_ENTRIES.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ctxopt.bounded_cache import BoundedCache
from ctxopt.types import Chunk, Fidelity

MAX_ENTRIES = 20_000

Rendered = tuple[str, int]  # the content and its cost in the prompt


class RenderCache(BoundedCache[Rendered]):
    """Renderings by everything they depend on; least recently used go past max_entries."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        super().__init__(max_entries)

    def rendered(
        self,
        chunk: Chunk,
        fidelity: Fidelity,
        level: str,
        lines: tuple[int, int] | None,
        make: Callable[[], Rendered],
    ) -> Rendered:
        return self.get(render_key(chunk, fidelity, level, lines), make)


def render_key(
    chunk: Chunk, fidelity: Fidelity, level: str, lines: tuple[int, int] | None
) -> Hashable:
    """What a chunk's rendering and its cost depend on (the place names an empty one)."""
    return (
        chunk.text,
        chunk.language,
        chunk.start_line,
        chunk.end_line,
        chunk.signature,
        chunk.summary,
        chunk.path,
        chunk.qualified_name,
        fidelity,
        level,
        lines,
    )


RENDERS = RenderCache()
