"""Savings on a real indexed repository (fake embedder): cost_saved for every model of the
table, task_savings against the pack itself, compression measured from the stored chunks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ctxopt import tokens
from ctxopt.app.pack import refresh_then_pack
from ctxopt.app.stats_report import task_savings
from ctxopt.config.settings import Settings, load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.stats import stored_chunks
from ctxopt.index.store import IndexReader
from ctxopt.pack import models as model_table
from ctxopt.pack.api import PackOptions
from ctxopt.pack.compress import compress
from ctxopt.pack.compression_ratio import compression_ratios
from ctxopt.pack.tasks_file import SavingsTask
from helpers import HashEmbedder, sample_repo

TASK = "fix save_inventory when the file is missing"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    repo = sample_repo(tmp_path_factory.mktemp("savings"))
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


MODELS = model_table.load_models()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_cost_saved_for_every_model(indexed: Settings, name: str) -> None:
    model = MODELS[name]
    result = refresh_then_pack(
        indexed, PackOptions(task=TASK, budget=600, model=name), refresh=False
    )
    saved = result.savings.repo_tokens - result.tokens
    assert saved > 0
    expected = saved * model.token_factor * model.input_price / 1_000_000
    assert result.savings.cost_saved == pytest.approx(expected, abs=1e-6)
    assert result.savings.model == name
    assert (result.savings.cost_saved > 0) == (model.input_price > 0)


def test_cost_saved_without_a_model_uses_the_default_price(indexed: Settings) -> None:
    result = refresh_then_pack(indexed, PackOptions(task=TASK, budget=600), refresh=False)
    default = MODELS[model_table.DEFAULT_PRICE_MODEL]
    saved = result.savings.repo_tokens - result.tokens
    assert result.recommendation.model.input_price == 0  # a local model: the old 0.0
    assert result.savings.cost_saved == pytest.approx(
        saved * default.token_factor * default.input_price / 1e6, abs=1e-6
    )
    assert result.savings.cost_saved > 0


def test_task_savings_matches_the_pack(indexed: Settings) -> None:
    row = task_savings(indexed, SavingsTask(TASK, 900, "gpt-5"))
    packed = refresh_then_pack(
        indexed, PackOptions(task=TASK, budget=900, model="gpt-5"), refresh=False
    )
    assert row.packed_tokens == packed.tokens == tokens.count(packed.prompt)
    assert row.repo_tokens == sum(
        r.tokens for r in IndexReader(indexed.db_path).file_records().values()
    )
    assert row.saved_percent == pytest.approx(
        100 * (1 - row.packed_tokens / row.repo_tokens), abs=0.01
    )
    assert row.repo_cost == pytest.approx(row.repo_tokens * 1.25 / 1e6, abs=1e-6)
    assert row.pack_cost == pytest.approx(row.packed_tokens * 1.25 / 1e6, abs=1e-6)
    assert row.confidence == packed.confidence


def test_compression_is_measured_from_the_index_alone(indexed: Settings, tmp_path: Path) -> None:
    copy = tmp_path / "index-only"
    shutil.copytree(indexed.db_path, copy)  # no repository next to it: nothing to re-parse
    reader = IndexReader(copy)
    chunks = stored_chunks(reader)
    report = compression_ratios(reader, sample_tokens=0)
    assert not report.sampled and report.chunks == len(chunks)
    by_level = {level.level: level for level in report.levels}
    assert by_level["none"].tokens == sum(c.tokens for c in chunks) == report.tokens
    expected = sum(
        tokens.count(compress(c.text, c.language, "aggressive", start_line=c.start_line))
        for c in chunks
    )
    assert by_level["aggressive"].tokens == expected
    assert by_level["none"].tokens > by_level["medium"].tokens > by_level["aggressive"].tokens
    sample = compression_ratios(reader, sample_tokens=300)
    assert sample.sampled and 0 < sample.chunks < len(chunks)
    assert sample.index_tokens == report.tokens


@pytest.mark.parametrize("task", [TASK, "inventory is not refreshed after a save", "zzz qqq"])
def test_query_and_pack_report_one_confidence(indexed: Settings, task: str) -> None:
    from ctxopt.app.query import refresh_then_query
    from ctxopt.retrieve.search import QueryOptions

    queried, _ = refresh_then_query(indexed, task, QueryOptions(k=5))
    packed = refresh_then_pack(indexed, PackOptions(task=task, budget=900), refresh=False)
    assert queried.confidence == packed.confidence
    assert 0.0 <= packed.confidence <= 1.0
