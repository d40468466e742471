"""The numpy MiniLM encoder: the same vectors as sentence-transformers, without torch."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from ctxopt.config.environment import HUGGING_FACE, quiet_library
from ctxopt.embed.minilm import minilm_path
from ctxopt.embed.minilm_numpy import MAX_TOKENS, NumpyMiniLM, _erf
from helpers import run_in_fresh_python

TEXTS = [
    "fix the retry logic when the server returns 503",
    "Add `init` hook (#841)",
    "def charge_card(amount):\n    return amount * 100\n" * 60,  # past MAX_TOKENS: truncated
    "Überprüfe die Größe — naïve café ☕",
    "x",
]


def test_erf_matches_the_standard_library() -> None:
    points = np.linspace(-6, 6, 241)
    expected = np.array([math.erf(p) for p in points])
    assert np.abs(_erf(points) - expected).max() < 2e-7


@pytest.mark.slow
def test_vectors_match_sentence_transformers() -> None:
    quiet_library(HUGGING_FACE)
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(minilm_path(), device="cpu").encode(
        TEXTS, normalize_embeddings=True
    )
    encoder = NumpyMiniLM(Path(minilm_path()))
    vectors = encoder.encode(TEXTS)
    assert vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    assert np.abs(vectors - reference).max() < 1e-5
    assert len(encoder.tokenizer.encode(TEXTS[2]).ids) == MAX_TOKENS
    assert encoder.encode([]).shape == (0, 384)


def test_the_query_path_encoder_for_a_minilm_index_never_imports_torch() -> None:
    out, heavy = run_in_fresh_python(
        "import numpy as np\n"
        "from pathlib import Path\n"
        "from ctxopt.embed.factory import task_encoder\n"
        "v = task_encoder('minilm', Path('unused'))('take payment from a customer')\n"
        "w = task_encoder('minilm-l6-v2', Path('unused'))('charge a credit card')\n"
        "print('NORM', round(float(np.linalg.norm(v)), 4), v.shape[0])\n"
        "print('COS', round(float(v @ w), 3))\n"
    )
    assert heavy == []
    assert "NORM 1.0 384" in out, out
    cosine = float(out.split("COS ")[1].split()[0])
    assert 0.3 < cosine < 1.0  # related texts, not the same one
