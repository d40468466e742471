"""Exact counts: the same with and without the memo of texts counted lately."""

from __future__ import annotations

import random

from ctxopt import tokens


def _text(seed: int, lines: int) -> str:
    rng = random.Random(seed)
    words = ["def", "return", "self", "value", "  ", "\t", "(", ")", ":", "é", "数据", "0x1F"]
    return "\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(lines))


def _exact(text: str) -> int:
    return len(tokens.encoding().encode(text, disallowed_special=()))


def test_counts_are_exact_whether_or_not_the_text_was_counted_before() -> None:
    texts = [_text(seed, lines) for seed, lines in enumerate([1, 3, 40, 80, 200, 5, 120])]
    texts.append("<|endoftext|>" + texts[3])  # a special token's text counts as text
    expected = [_exact(text) for text in texts]
    assert [tokens.count(text) for text in texts] == expected  # misses
    assert [tokens.count(text) for text in texts] == expected  # hits where memoised
    assert tokens.count_many(texts) == expected
    fresh = [_text(100 + seed, 60) for seed in range(4)]
    mixed = [fresh[0], texts[4], fresh[1], texts[2], fresh[2], fresh[3]]
    assert tokens.count_many(mixed) == [_exact(text) for text in mixed]


def test_equal_texts_made_separately_share_the_memo_and_stay_exact() -> None:
    base = _text(7, 90)
    copy = "".join(list(base))  # equal, another object
    assert copy is not base
    assert tokens.count(base) == tokens.count(copy) == _exact(base)
    edited = base[:-1] + "x"
    assert tokens.count(edited) == _exact(edited)
