"""The service keeps its index reader between calls while the index's commit stays the
same, and opens a new one once a refresh commits a newer index (real index on disk)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from ctxopt.app.pack import refresh_then_pack
from ctxopt.app.warm import lend
from ctxopt.background.repositories import Repositories
from ctxopt.config.settings import load_settings
from ctxopt.mcp_server.service import PackCall, QueryCall, RepoService
from ctxopt.pack.api import PackOptions
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


def test_rows_wait_for_load_ahead_where_no_thread_may_load_them(own_indexed_repo: Path) -> None:
    """The background server rewrites its environment as each call ends (the caller's, then
    its own); Lance loading rows on a thread meanwhile read it mid-rewrite and crashed the
    server (a segmentation fault, 1 run in about 20).  There the rows wait for load_ahead,
    which the server calls once the call's environment is gone."""
    service = RepoService(load_settings(own_indexed_repo), rows_on_thread=False)
    service.query(QueryCall(task="reserve stock", top=3))
    (own_indexed_repo / "inventory" / "extra.py").write_text(
        "def count_pallets(shelf):\n    return len(shelf)\n", encoding="utf-8"
    )
    service.pack(PackCall(task="count pallets on a shelf", budget=2000))
    assert service.loading is None  # no thread was started
    second = service.reader()
    assert second is not None and loaded_rows(second) is None
    service.load_ahead()
    rows = loaded_rows(second)
    assert rows is not None and rows.in_files(["inventory/extra.py"], 10)
    assert service.loading is None


def test_the_background_server_loads_rows_between_calls(
    own_indexed_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []
    start = threading.Thread.start

    def recorded(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", recorded)
    repositories = Repositories()
    settings = load_settings(own_indexed_repo)
    (own_indexed_repo / "inventory" / "extra.py").write_text(
        "def count_pallets(shelf):\n    return len(shelf)\n", encoding="utf-8"
    )
    with lend(repositories):
        refresh_then_pack(settings, PackOptions(task="count pallets on a shelf", budget=2000))
    assert "ctxopt-rows" not in started  # the refreshed index's rows wait for load_ahead
    repositories.load_ahead()
    with repositories.call(settings) as warm:
        assert warm.reader is not None and loaded_rows(warm.reader) is not None
    repositories.close()
