"""The default static model: a model2vec distillation of the bundled MiniLM, made once.

It is distilled locally from the all-MiniLM-L6-v2 weights (about 30 s, the first
time) into `<cache dir>/models/<name>`; embedding with it needs only ``tokenizers``
and ``safetensors``, so neither torch nor model2vec is imported at run time.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, cast

import numpy as np

from ctxopt.config.environment import HUGGING_FACE, quiet_library
from ctxopt.embed.base import DIMENSIONS, STATIC_NAME, Notify, clip, normalise
from ctxopt.embed.minilm import minilm_path


class StaticEmbedder:
    """Static embeddings: mean of per-token vectors, no torch and no model2vec at run time."""

    name = STATIC_NAME
    dimensions = DIMENSIONS[STATIC_NAME]
    max_tokens = 512

    def __init__(self, cache_dir: Path, notify: Notify | None = None) -> None:
        self.model_dir = cache_dir / "models" / STATIC_NAME
        self._notify = notify
        self._tokenizer: Any = None
        self._vectors: np.ndarray | None = None
        self._unknown: int | None = None
        self._word_cache: dict[str, tuple[int, ...]] = {}

    def _load(self) -> None:
        if self._vectors is not None:
            return
        if not (self.model_dir / "model.safetensors").exists():
            distill_static(self.model_dir, self._notify)
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self._unknown = self._tokenizer.token_to_id("[UNK]")
        self._vectors = load_file(str(self.model_dir / "model.safetensors"))["embeddings"].astype(
            np.float32
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        self._load()
        assert self._vectors is not None
        clipped = clip(texts)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        slow = [row for row, text in enumerate(clipped) if not plain_ascii(text)]
        encodings = self._tokenizer.encode_batch_fast(
            [clipped[row] for row in slow], add_special_tokens=False
        )
        ids_of: dict[int, list[int]] = {
            row: [i for i in encoding.ids if i != self._unknown][: self.max_tokens]
            for row, encoding in zip(slow, encodings, strict=True)
        }
        for row, text in enumerate(clipped):
            ids = ids_of[row] if row in ids_of else self._word_ids(text)
            if ids:  # the sum over the count: the same float32 figures as mean, faster
                out[row] = self._vectors.take(ids, axis=0).sum(axis=0) / len(ids)
        return normalise(out)

    def _word_ids(self, text: str) -> list[int]:
        """The first max_tokens known token ids of a plain_ascii text, as the tokenizer gives
        them, from a cache of each word's ids (its pre-tokenizer splits such a text into runs
        of letters and digits and single punctuation marks, and word pieces never cross
        them; the normaliser only lower-cases), so no text is tokenized twice in a run."""
        cache = self._word_cache
        if len(cache) > WORD_CACHE_SIZE:
            cache.clear()
        words = _WORDS.findall(text.lower())
        if len(words) > self.max_tokens:  # most words give an id or more: try the head first
            ids = self._ids_of(words[: self.max_tokens])
            if len(ids) >= self.max_tokens:
                return ids[: self.max_tokens]
        return self._ids_of(words)[: self.max_tokens]

    def _ids_of(self, words: list[str]) -> list[int]:
        """The known token ids of words, in order, through the word cache."""
        cache = self._word_cache
        pieces: list[tuple[int, ...] | None] = list(map(cache.get, words))
        if None in pieces:
            for at, word in enumerate(words):
                if pieces[at] is None:
                    hit = cache.get(word)  # the same word earlier in this text
                    pieces[at] = self._word_pieces(word) if hit is None else hit
        known = cast(list[tuple[int, ...]], pieces)  # every None filled above
        return list(itertools.chain.from_iterable(known))

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        """One word's known token ids, cached."""
        encoded = self._tokenizer.encode(word, add_special_tokens=False).ids
        known = self._word_cache[word] = tuple(i for i in encoded if i != self._unknown)
        return known


WORD_CACHE_SIZE = 200_000  # words whose ids are kept (a few tens of MB at most)
# A word of the BERT pre-tokenizer in ASCII text: a run of letters and digits, or one
# punctuation mark (every ASCII character that is neither, "_" included).
_WORDS = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")
# ASCII with no control character but tab, line feed and carriage return: the normaliser
# removes the others (joining the words around them), so such texts take the tokenizer.
_PLAIN = re.compile(r"[\t\n\r -~]*")


def plain_ascii(text: str) -> bool:
    """True when text is printable ASCII, tabs and line breaks (the word cache's texts)."""
    return text.isascii() and _PLAIN.fullmatch(text) is not None


def distill_static(target: Path, notify: Notify | None = None) -> None:
    """Distil the static model from the bundled MiniLM into target (atomic, one time)."""
    if notify:
        notify(f"one-time setup: distilling the static embedding model into {target} (~30 s)")
    quiet_library(HUGGING_FACE)
    from model2vec.distill import distill

    target.parent.mkdir(parents=True, exist_ok=True)
    with open(os.devnull, "w") as sink, redirect_stdout(sink), redirect_stderr(sink):
        model = distill(model_name=minilm_path(), pca_dims=DIMENSIONS[STATIC_NAME])
    staging = Path(tempfile.mkdtemp(prefix=".distill-", dir=target.parent))
    try:
        model.save_pretrained(str(staging))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
