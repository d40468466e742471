"""The chunker's internal, mutable-free description of a chunk before ids and counts."""

from __future__ import annotations

from dataclasses import dataclass

from ctxopt.types import ChunkKind


@dataclass(frozen=True)
class Draft:
    """A chunk located by line range; build.py turns it into a Chunk."""

    kind: ChunkKind
    name: str
    qualified_name: str
    start: int  # 1-based, inclusive
    end: int  # 1-based, inclusive
    signature: str = ""
    docstring: str = ""
    defines: tuple[str, ...] = ()
    parent: str = ""
    summary_text: str | None = None  # the text of a class-summary chunk
    code: bool = True  # False for doc/config: complexity 1, no references
