"""The fast counter gives tiktoken's cl100k counts, and counting falls back to tiktoken."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from ctxopt import token_counter, tokens

SOURCE = Path(__file__).resolve().parents[1] / "src" / "ctxopt"
# Pieces where pre-tokenisers differ: contractions in any case, runs of spaces before a word
# or a line end, Unicode letters, numbers and marks, emoji sequences, special-token text.
PIECES = [
    " ",
    "  ",
    "   ",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    " \n",
    "'s",
    "'S",
    "'ll",
    "'LL",
    "'Re",
    "’s",
    "a",
    "Z",
    "é",
    "ß",
    "日本語",
    "🙂",
    "👩\u200d💻",
    "0",
    "12345",
    "1234567",
    "-",
    "_",
    "<|endoftext|>",
    "<|fim_prefix|>",
    "\u00a0",
    "\u2028",
    "\u200b",
    "'",
    '"',
    "()",
    "{}",
    ";",
    "ǅ",
    "ﬁ",
    "x\u0327",
    "١٢٣",
    "Ⅻ",
    "½",
    "def",
    " return",
    "self.value",
    "#",
    "//",
    "/*",
]


def _tiktoken_count(text: str) -> int:
    return len(tokens.encoding().encode_ordinary(text))


def _texts() -> list[str]:
    rng = random.Random(18)
    texts = []
    for path in sorted(SOURCE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        for _ in range(3):
            start = rng.randrange(len(text) + 1)
            texts.append(text[start : start + rng.randrange(300)])
    texts += [
        "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30))) for _ in range(20_000)
    ]
    return texts


def test_the_fast_counter_is_installed_and_counts_as_tiktoken() -> None:
    fast = token_counter.fast_counter()
    assert fast is not None  # bpe-openai is a dependency: its wheel must load
    texts = _texts()
    assert [fast(text) for text in texts] == [_tiktoken_count(text) for text in texts]
    assert tokens.count_many(texts[:500]) == [_tiktoken_count(text) for text in texts[:500]]


def test_without_the_wheel_counting_falls_back_to_tiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, token_counter.BINDINGS, raising=False)
    monkeypatch.setattr(token_counter.importlib.util, "find_spec", lambda name: None)
    token_counter.fast_counter.cache_clear()
    try:
        assert token_counter.fast_counter() is None
        text = "def f(x):\n    return x  # 'LL 日本語 <|endoftext|>\n"
        assert tokens.count(text) == _tiktoken_count(text)
        assert tokens.count_many([text, "a b"]) == [_tiktoken_count(text), 2]
    finally:
        token_counter.fast_counter.cache_clear()
