"""Token-sized shards: every file once, in order, each shard near its target."""

from __future__ import annotations

import random

from ctxopt.index import shards
from ctxopt.types import SourceFile


def files(sizes: list[int]) -> list[SourceFile]:
    return [
        SourceFile(f"f{i:04}.py", f"/r/f{i:04}.py", size, 0, "python")
        for i, size in enumerate(sizes)
    ]


def test_every_file_is_in_exactly_one_shard_in_order() -> None:
    rng = random.Random(7)
    sizes = [rng.choice([0, 40, 900, 4_000, 60_000, 2_000_000]) for _ in range(500)]
    made = shards.make_shards(files(sizes), workers=3)
    flat = [i for shard in made for i in shard.indices]
    assert flat == list(range(500))
    assert all(
        shard.indices == tuple(range(shard.indices[0], shard.indices[-1] + 1)) for shard in made
    )


def test_shards_are_cut_by_tokens_not_by_file_count() -> None:
    # 100 tiny files then 4 big ones: by tokens, the tiny ones share a shard and each big
    # file has one of its own; no shard of several files passes the target
    sizes = [400] * 100 + [1_200_000] * 4 + [400] * 10
    made = shards.make_shards(files(sizes), workers=2)
    target = shards.shard_target(sum(max(1, s // 4) for s in sizes), 2)
    assert [len(s.indices) for s in made] == [100, 1, 1, 1, 1, 10]
    assert [s.tokens for s in made] == [10_000, 300_000, 300_000, 300_000, 300_000, 1_000]
    assert all(s.tokens <= target for s in made if len(s.indices) > 1)


def test_the_target_stays_within_its_bounds() -> None:
    assert shards.shard_target(10, 8) == shards.MIN_SHARD_TOKENS
    assert shards.shard_target(10**10, 2) == shards.MAX_SHARD_TOKENS
    assert shards.shard_target(800_000, 2) == 100_000


def test_no_files_no_shards() -> None:
    assert shards.make_shards([], workers=4) == []
