"""The application layer: one refresh (or none) before a query or a pack, one index reader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctxopt.app import refresh as app_refresh
from ctxopt.app.pack import refresh_then_pack
from ctxopt.app.query import refresh_then_query
from ctxopt.config.settings import Settings, load_settings
from ctxopt.discover.changes import ChangeRequest
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.pack.api import PackOptions
from ctxopt.retrieve.search import QueryOptions
from ctxopt.types import DropReason
from helpers import HashEmbedder, sample_repo


@pytest.fixture
def changed(tmp_path: Path) -> Settings:
    """An indexed sample repo whose storage.py then changed (one stale file)."""
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    storage = repo / "inventory" / "storage.py"
    storage.write_text(storage.read_text().replace("def load_inventory", "def load_stock", 1))
    return settings


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of stale checks, index builds and index readers opened."""
    counts = {"stale_plan": 0, "build_index": 0, "readers": 0}
    stale_plan, opened = app_refresh.stale_plan, IndexReader.__init__

    def counted_stale(*args: Any, **kwargs: Any) -> Any:
        counts["stale_plan"] += 1
        return stale_plan(*args, **kwargs)

    def counted_build(settings: Settings) -> Any:
        counts["build_index"] += 1
        return build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)

    def counted_open(self: IndexReader, db: Path, **kwargs: Any) -> None:
        counts["readers"] += 1
        opened(self, db, **kwargs)

    monkeypatch.setattr(app_refresh, "stale_plan", counted_stale)
    monkeypatch.setattr(app_refresh, "build_index", counted_build)
    monkeypatch.setattr(IndexReader, "__init__", counted_open)
    return counts


def test_a_pack_for_a_change_refreshes_once(changed: Settings, calls: dict[str, int]) -> None:
    result = refresh_then_pack(changed, PackOptions(task="review"), change=ChangeRequest())
    # readers: the stale check, the build (its stored records), the refreshed index
    assert calls == {"stale_plan": 1, "build_index": 1, "readers": 3}
    assert result.stale == 0
    assert "```diff" in result.prompt and "(git HEAD)" in result.prompt
    touched = [c.hit for c in result.chosen if "touched by the change" in c.hit.reasons]
    assert [h.chunk.name for h in touched] == ["load_stock"]


def test_no_refresh_is_honoured_with_a_change(changed: Settings, calls: dict[str, int]) -> None:
    result = refresh_then_pack(
        changed, PackOptions(task="review"), refresh=False, change=ChangeRequest()
    )
    assert calls == {"stale_plan": 1, "build_index": 0, "readers": 1}
    assert result.stale == 1
    assert "load_stock" in result.prompt  # the diff itself is read from git


def test_a_query_reads_through_one_reader(changed: Settings, calls: dict[str, int]) -> None:
    result, freshness = refresh_then_query(changed, "load stock", QueryOptions(k=5), refresh=False)
    assert calls == {"stale_plan": 1, "build_index": 0, "readers": 1}
    assert freshness.stale == 1 and not freshness.refreshed and freshness.left_stale == 1
    assert result.results


def test_a_low_confidence_pack_accounts_for_every_candidate_it_leaves_out(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    # one word of nine is the repository's: too little to pack anything the task does not name
    task = "zebra marmalade quantum harpsichord velvet tundra oboe walrus inventory"
    result = refresh_then_pack(settings, PackOptions(task=task), refresh=False)
    assert any("no highly relevant code" in w for w in result.warnings)
    assert not result.chosen
    left = [d for d in result.dropped if d.reason is DropReason.LOW_CONFIDENCE]
    assert left and len(left) == len(result.dropped)
    assert left[0].text == "the task matched too little code; only what it names is packed"
