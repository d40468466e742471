"""Prompt counts from remembered line-stretch counts are exact: the same as counting the
whole text at once."""

from __future__ import annotations

import random
from pathlib import Path

from ctxopt import tokens
from ctxopt.pack import prompt_tokens

SAMPLES = Path(__file__).parent / "samples"

EDGES = [
    "",
    "\n",
    "\n\n\nx",
    "def f():\n    return 1\n\n\nclass A:\n    pass\n",
    "trailing spaces   \nnext\n   \n\tindented\n",
    "a):\n'sure'\n's\n'll be\n",
    "<|endoftext|>\n<|endoftext|> again\n",
    "windows\r\nline\r\n\r\nends\r\n",
    "unicode\n\u00a0nbsp\n\u3000ideographic\n\u2028sep\nend",
    "123456\n7890\n1 2 3\n",
    "## heading\n```python\nx = 1\n```\n\n- item\n",
    "emoji 😀\n😀 start\n",
]


def texts() -> list[str]:
    rng = random.Random(3)
    found = [
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(SAMPLES.rglob("*"))
        if p.is_file()
    ]
    mixed = []
    for _ in range(40):
        a, b = rng.choice(found), rng.choice(found)
        mixed.append(
            a[: rng.randint(0, len(a))]
            + rng.choice(["\n", "\n\n", " ", ""])
            + b[rng.randint(0, len(b)) :]
        )
    return [*EDGES, *found, *mixed]


def test_counts_are_exact_with_and_without_remembered_stretches() -> None:
    prompt_tokens.forget()
    for text in texts():
        assert prompt_tokens.count(text) == tokens.count(text), repr(text[:80])
    for text in texts():  # now from remembered stretches
        assert prompt_tokens.count(text) == tokens.count(text), repr(text[:80])
