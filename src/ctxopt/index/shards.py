"""The indexing work split into shards of about the same estimated tokens.

A shard is a run of consecutive files (in the plan's path order) whose estimated tokens
add up to about one target; a worker process takes a whole shard at a time.  Sizing by
tokens rather than by file count keeps the work of each shard (chunking, counting and
embedding all scale with text) and the memory of its results about equal: a shard of one
50,000-line generated file and a shard of forty small modules cost about the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ctxopt.types import SourceFile

BYTES_PER_TOKEN = 4  # the estimate: about 4 bytes of source a token
MIN_SHARD_TOKENS = 2_000  # below this a shard's round trip costs more than its work
MAX_SHARD_TOKENS = 250_000  # bounds a shard's results held in memory (about 3 MB of text)
SHARDS_PER_WORKER = 4  # enough shards that the last ones even out the workers' finish


@dataclass(frozen=True)
class Shard:
    """Indices into the plan's file list (consecutive, ascending) and their estimate."""

    indices: tuple[int, ...]
    tokens: int


def estimated_tokens(source: SourceFile) -> int:
    """A file's tokens estimated from its size (at least 1, so empty files still count)."""
    return max(1, source.size // BYTES_PER_TOKEN)


def shard_target(total_tokens: int, workers: int) -> int:
    """Tokens a shard aims at: a few shards per worker, within the fixed bounds."""
    wanted = -(-total_tokens // max(1, workers * SHARDS_PER_WORKER))
    return max(MIN_SHARD_TOKENS, min(MAX_SHARD_TOKENS, wanted))


def make_shards(sources: Sequence[SourceFile], workers: int) -> list[Shard]:
    """Consecutive shards covering every file exactly once, none past the target unless one
    file alone is (such a file is a shard of its own)."""
    sizes = [estimated_tokens(s) for s in sources]
    target = shard_target(sum(sizes), workers)
    shards: list[Shard] = []
    start, tokens = 0, 0
    for index, size in enumerate(sizes):
        if tokens and tokens + size > target:
            shards.append(Shard(tuple(range(start, index)), tokens))
            start, tokens = index, 0
        tokens += size
    if start < len(sizes):
        shards.append(Shard(tuple(range(start, len(sizes))), tokens))
    return shards
