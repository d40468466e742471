"""A checkout reading a shared index on object storage (moto on 127.0.0.1) keeps its own
freshness snapshot and hash cache in the user cache: a query with nothing changed runs no
refresh check, and one with a local edit reads only the files whose stat changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctxopt.app import refresh as app_refresh
from ctxopt.config.settings import Settings, load_settings
from ctxopt.index import hash_cache, snapshot
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from helpers import HashEmbedder, git, sample_repo, write_files
from s3server import S3Server


@pytest.fixture
def clone(
    tmp_path: Path, s3_server: S3Server, s3_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Settings:
    """A clone of the sample repo reading the index its origin built on the S3 server (the
    clone's files have other mtimes than the ones stored); the user cache in tmp_path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = f"s3://{s3_server.bucket()}/team/app"
    origin = sample_repo(tmp_path / "origin")
    build_index(load_settings(origin, {"db": db}), embedder=HashEmbedder(), workers=IN_PROCESS)
    git(tmp_path, "clone", "-q", str(origin), str(tmp_path / "clone"))
    return load_settings(tmp_path / "clone", {"db": db})


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Calls of the refresh check and files read for their hash."""
    counts = {"plans": 0, "hashed": 0}
    stale_plan, file_hash = app_refresh.stale_plan, hash_cache.file_hash

    def plan(*args: Any, **kwargs: Any) -> Any:
        counts["plans"] += 1
        return stale_plan(*args, **kwargs)

    def hashed(path: str) -> str:
        counts["hashed"] += 1
        return file_hash(path)

    monkeypatch.setattr(app_refresh, "stale_plan", plan)
    monkeypatch.setattr(hash_cache, "file_hash", hashed)
    return counts


def test_a_fresh_clone_checks_once_then_answers_from_its_snapshot(
    clone: Settings, counted: dict[str, int]
) -> None:
    freshness, _ = app_refresh.refresh_index(clone, refresh=True)
    assert freshness.stale == 0 and counted["plans"] == 1
    assert counted["hashed"] > 0  # the clone's mtimes are not the builder's: hashed once
    assert (snapshot.shared_folder(clone) / snapshot.SNAPSHOT_NAME).is_file()
    freshness, _ = app_refresh.refresh_index(clone, refresh=True)
    assert freshness.stale == 0 and counted["plans"] == 1  # no check, no file read


def test_a_local_edit_is_reported_and_only_the_edited_file_is_read_again(
    clone: Settings, counted: dict[str, int]
) -> None:
    app_refresh.refresh_index(clone, refresh=True)
    hashed_once = counted["hashed"]
    edited = sorted(clone.root.rglob("*.py"))[0]
    edited.write_text(edited.read_text() + "\n\ndef audit_hook():\n    return 1\n")
    for _ in range(2):
        before = counted["hashed"]
        freshness, _ = app_refresh.refresh_index(clone, refresh=True)
        assert freshness.stale == 1 and not freshness.refreshed  # shared: never written
        assert counted["hashed"] - before <= 1
    assert counted["hashed"] - hashed_once == 1  # the edited file, read once
    assert counted["plans"] == 3


def test_a_new_commit_of_the_shared_index_voids_the_snapshot(
    clone: Settings, counted: dict[str, int]
) -> None:
    app_refresh.refresh_index(clone, refresh=True)
    origin = Path(git(clone.root, "remote", "get-url", "origin").strip())
    write_files(origin, {"inventory/extra.py": "def restock_shelf(n):\n    return n + 1\n"})
    settings = load_settings(origin, {"db": str(clone.db_path)})
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)  # CI writes
    freshness, _ = app_refresh.refresh_index(clone, refresh=True)
    assert counted["plans"] == 2  # checked again: the marker changed
    assert freshness.stale == 1  # the clone lacks the file the index now has


def test_index_runs_on_object_storage_keep_no_snapshot(clone: Settings) -> None:
    assert snapshot.capture(clone) is None
    assert snapshot.capture(clone, shared=True) is not None
