"""The approximate vector index: built past its row threshold, exact search below it, and
the full-text index and new rows still found after an incremental update."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.config.settings import load_settings
from ctxopt.index import vector_index
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.candidates import CandidateSource
from helpers import HashEmbedder, commit_all, init_repo, write_files


def many_functions(tmp_path: Path, files: int) -> Path:
    repo = init_repo(tmp_path / "repo")
    write_files(
        repo,
        {
            f"pkg/mod_{i:03}.py": "".join(
                f"def task_{i}_{j}(order):\n    return order.total * {j}\n\n" for j in range(6)
            )
            for i in range(files)
        },
    )
    commit_all(repo)
    return repo


def test_the_index_is_built_only_past_the_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = many_functions(tmp_path, 60)  # 360 chunks
    small = load_settings(repo, {"db": tmp_path / "small"})
    build_index(small, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert not vector_index.has_vector_index(IndexReader(small.db_path).dataset("chunks"))

    monkeypatch.setattr(vector_index, "ANN_MIN_ROWS", 300)
    large = load_settings(repo, {"db": tmp_path / "large"})
    build_index(large, embedder=HashEmbedder(), workers=IN_PROCESS)
    chunks = IndexReader(large.db_path).dataset("chunks")
    assert vector_index.has_vector_index(chunks)

    # a chunk's own vector finds it first, with the true cosine (1), under both searches
    row = chunks.to_table(columns=["name", "vector"], filter="name = 'task_7_3'").to_pylist()[0]
    exact = CandidateSource(IndexReader(small.db_path)).nearest(row["vector"], 5)
    approx = CandidateSource(IndexReader(large.db_path)).nearest(row["vector"], 5)
    assert approx[0][0].name == exact[0][0].name == "task_7_3"
    assert approx[0][1] == pytest.approx(exact[0][1], abs=1e-4) == pytest.approx(1.0, abs=1e-4)


def test_rows_added_after_the_index_are_found_by_vector_and_full_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vector_index, "ANN_MIN_ROWS", 300)
    repo = many_functions(tmp_path, 60)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    write_files(repo, {"pkg/refunds.py": "def reconcile_refund_ledger(entry):\n    return entry\n"})
    commit_all(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)

    source = CandidateSource(IndexReader(settings.db_path))
    assert vector_index.has_vector_index(IndexReader(settings.db_path).dataset("chunks"))
    query = HashEmbedder().embed(["def reconcile_refund_ledger(entry): return entry"])[0]
    assert source.nearest(query, 3)[0][0].name == "reconcile_refund_ledger"
    assert source.full_text("reconcile refund ledger", 3)[0][0].name == "reconcile_refund_ledger"
