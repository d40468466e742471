"""The static embedder's word cache gives the tokenizer's own ids and the same vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ctxopt.embed.base import clip
from ctxopt.embed.static import StaticEmbedder, plain_ascii

TEXTS = [
    "def parse_http_response(raw: bytes) -> Response:\n    return Response(raw)\n",
    "class OrderRefund(BaseModel):\n\t'''Refund a cancelled order.'''\r\n    amount = 0x1F\n",
    "x" * 150 + " tail_word AnotherWord ~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./",
    "SELECT id, name FROM users WHERE id=42; -- comment\n" * 300,  # over 512 ids and clipped
    "   \n\n   ",
    "",
    "émigré naïve café 東京 mixed with ascii_words",  # not plain: the tokenizer's own path
    "tab\x0bvertical\x0cform\x01control",  # control characters: the tokenizer's own path
]


@pytest.fixture(scope="module")
def embedder() -> StaticEmbedder:
    model = StaticEmbedder(Path.home() / ".cache" / "ctxopt")
    model.embed(["load the model"])
    return model


def tokenizer_ids(model: StaticEmbedder, text: str) -> list[int]:
    ids = model._tokenizer.encode(text, add_special_tokens=False).ids
    return [i for i in ids if i != model._unknown][: model.max_tokens]


def tokenizer_vectors(model: StaticEmbedder, texts: list[str]) -> np.ndarray:
    assert model._vectors is not None
    out = np.zeros((len(texts), model.dimensions), dtype=np.float32)
    for row, text in enumerate(clip(texts)):
        ids = tokenizer_ids(model, text)
        if ids:
            out[row] = model._vectors[ids].mean(axis=0)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return out / norms


def test_plain_ascii_takes_printable_ascii_tabs_and_line_breaks_only() -> None:
    assert plain_ascii("a_b = {1: 'x'}\n\tz\r\n")
    assert not plain_ascii("café")
    assert not plain_ascii("a\x00b")
    assert not plain_ascii("a\x7fb")


def test_word_ids_equal_the_tokenizer_ids(embedder: StaticEmbedder) -> None:
    for text in clip(TEXTS):
        if plain_ascii(text):
            assert embedder._word_ids(text) == tokenizer_ids(embedder, text), text[:40]


def test_vectors_equal_the_tokenizer_path_bit_for_bit(embedder: StaticEmbedder) -> None:
    got = embedder.embed(TEXTS)
    assert np.array_equal(got, tokenizer_vectors(embedder, TEXTS))
    assert not got[4].any() and not got[5].any()  # blank texts: zero vectors
    again = embedder.embed(TEXTS[:4])  # the cache filled by the first call
    assert np.array_equal(again, got[:4])
