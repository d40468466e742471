"""The service keeps its index reader between calls while the index's commit stays the
same, and opens a new one once a refresh commits a newer index (real index on disk)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.config.settings import load_settings
from ctxopt.mcp_server.service import PackCall, QueryCall, RepoService
from ctxopt.retrieve.kept_rows import loaded_rows

pytestmark = pytest.mark.slow


def test_the_reader_stays_warm_until_the_index_changes(own_indexed_repo: Path) -> None:
    service = RepoService(load_settings(own_indexed_repo))
    first = service.reader()
    assert first is not None
    records = first.file_records()
    result, freshness = service.query(QueryCall(task="reserve stock", top=3))
    assert freshness.stale == 0 and result.results
    assert service.reader() is first and first.file_records() is records

    (own_indexed_repo / "inventory" / "extra.py").write_text(
        "def count_pallets(shelf):\n    return len(shelf)\n", encoding="utf-8"
    )
    packed = service.pack(PackCall(task="count pallets on a shelf", budget=2000))
    assert "def count_pallets(shelf):" in packed.prompt
    second = service.reader()
    assert second is not None and second is not first
    assert "inventory/extra.py" in second.file_records()
    assert service.reader() is second


def test_without_an_index_there_is_no_reader(tmp_path: Path) -> None:
    assert RepoService(load_settings(tmp_path)).reader() is None


def test_chunk_rows_are_loaded_ahead_for_the_reader_of_a_refreshed_index(
    own_indexed_repo: Path,
) -> None:
    service = RepoService(load_settings(own_indexed_repo))
    service.query(QueryCall(task="reserve stock", top=3))
    first = service.reader()
    assert first is not None and loaded_rows(first) is not None  # loaded by the call
    assert service.loading is None  # nothing changed: nothing to load ahead
    (own_indexed_repo / "inventory" / "extra.py").write_text(
        "def count_pallets(shelf):\n    return len(shelf)\n", encoding="utf-8"
    )
    service.pack(PackCall(task="count pallets on a shelf", budget=2000))
    assert service.loading is not None
    service.loading.join()
    second = service.reader()
    assert second is not None and second is not first
    rows = loaded_rows(second)
    assert rows is not None and rows.in_files(["inventory/extra.py"], 10)
    result, _ = service.query(QueryCall(task="count pallets on a shelf", top=3))
    assert result.results[0].chunk.name == "count_pallets"
    assert loaded_rows(second) is rows
    service.close()
