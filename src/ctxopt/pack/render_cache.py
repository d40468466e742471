"""A chunk's text at each fidelity and its token cost, kept across calls by content.

Compressing a chunk parses it with tree-sitter, and its cost is an exact token count: a
long-lived process (`ctxopt mcp`) packs many of the same chunks call after call, so it
keeps both.  The key holds everything the rendering reads (the chunk's text itself, not a
stored hash: a redacted chunk keeps its content hash but not its text), so a changed file
gives new keys and nothing stale is shown.  Least recently used entries go past MAX_ENTRIES.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from ctxopt.types import Chunk, Fidelity

MAX_ENTRIES = 20_000

Rendered = tuple[str, int]  # the content and its cost in the prompt


class RenderCache:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, Rendered] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(
        self,
        chunk: Chunk,
        fidelity: Fidelity,
        level: str,
        lines: tuple[int, int] | None,
        make: Callable[[], Rendered],
    ) -> Rendered:
        key = render_key(chunk, fidelity, level, lines)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return found
        made = make()
        with self._lock:
            self.misses += 1
            self._entries[key] = made
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return made

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


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
