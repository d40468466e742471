"""The freshness snapshot: a no-change `ctxopt index` and the check before a query answer
from git's listing and a stat per file, and any change sends them back to the full path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from ctxopt.app import index as app_index
from ctxopt.app import refresh as app_refresh
from ctxopt.config.settings import Settings, load_settings
from ctxopt.index import snapshot
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.types import IndexStats
from helpers import HashEmbedder, commit_all, sample_repo


def _stats(stats: IndexStats) -> dict[str, Any]:
    return {k: v for k, v in asdict(stats).items() if k != "seconds"}


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[Settings]:
    """Every call of the indexer (with a fast embedder), recorded."""
    calls: list[Settings] = []

    def build(settings: Settings, **kwargs: Any) -> IndexStats:
        calls.append(settings)
        kwargs.pop("progress", None)
        kwargs.pop("workers", None)
        return build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS, **kwargs)

    monkeypatch.setattr(app_index, "_build", build)
    monkeypatch.setattr(app_refresh, "build_index", build)
    return calls


@pytest.fixture
def indexed(tmp_path: Path, builds: list[Settings]) -> Settings:
    settings = load_settings(sample_repo(tmp_path))
    app_index.index_repository(settings)
    assert len(builds) == 1
    return settings


def test_no_change_is_answered_without_the_indexer(
    indexed: Settings, builds: list[Settings]
) -> None:
    quick = app_index.index_repository(indexed)
    assert len(builds) == 1
    full = build_index(indexed, embedder=HashEmbedder(), workers=IN_PROCESS)  # finds nothing to do
    assert full.added == full.changed == full.deleted == 0
    assert _stats(quick) == _stats(full)


def _edit(settings: Settings) -> None:
    target = settings.root / "inventory" / "storage.py"
    target.write_text(target.read_text() + "\n# edited\n")


def _add_untracked(settings: Settings) -> None:
    (settings.root / "inventory" / "extra.py").write_text("def extra():\n    return 1\n")


def _delete(settings: Settings) -> None:
    (settings.root / "inventory" / "storage.py").unlink()


def _ignore_file(settings: Settings) -> None:
    (settings.root / ".ctxoptignore").write_text("inventory/storage.py\n")


def _index_folder(settings: Settings) -> None:
    (settings.db_path / "chunks.lance" / "_transactions" / "extra.txn").write_bytes(b"x")


def _commit(settings: Settings) -> None:
    (settings.root / "NOTES.txt").write_text("notes\n")
    commit_all(settings.root, "notes")
    (settings.root / "NOTES.txt").unlink()
    commit_all(settings.root, "no notes")  # same files as indexed, HEAD moved


CHANGES: dict[str, Callable[[Settings], None]] = {
    "edited file": _edit,
    "untracked file": _add_untracked,
    "deleted file": _delete,
    "ignore file": _ignore_file,
    "index folder": _index_folder,
    "commit": _commit,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_any_change_runs_the_indexer(
    indexed: Settings, builds: list[Settings], change: str
) -> None:
    CHANGES[change](indexed)
    app_index.index_repository(indexed)
    assert len(builds) == 2
    app_index.index_repository(indexed)  # the run's result is the next snapshot
    assert len(builds) == 2


def test_other_settings_are_not_answered_by_the_snapshot(
    indexed: Settings, builds: list[Settings]
) -> None:
    sources = dict(indexed.sources) | {"exclude": "flag"}  # as `--exclude` sets it
    other = replace(
        indexed, exclude=("inventory/storage.py",), sources=tuple(sorted(sources.items()))
    )
    stats = app_index.index_repository(other)
    assert len(builds) == 2 and stats.deleted == 1


def test_a_file_changed_after_the_capture_does_not_match(indexed: Settings) -> None:
    before = snapshot.capture(indexed)
    assert before is not None
    _edit(indexed)  # between the capture and the check it vouches for
    snapshot.save(indexed.db_path, before)
    now = snapshot.capture(indexed)
    assert now is not None
    assert snapshot.matches(indexed.db_path, now) == (False, None)


def test_the_query_check_skips_the_stale_plan_only_when_nothing_changed(
    indexed: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    plans: list[int] = []
    stale_plan = app_refresh.stale_plan

    def counted(*args: Any, **kwargs: Any) -> Any:
        plans.append(1)
        return stale_plan(*args, **kwargs)

    monkeypatch.setattr(app_refresh, "stale_plan", counted)
    freshness, _reader = app_refresh.refresh_index(indexed, refresh=False)
    assert freshness.stale == 0 and plans == []
    _edit(indexed)
    freshness, _reader = app_refresh.refresh_index(indexed, refresh=False)
    assert freshness.stale == 1 and plans == [1]


def test_a_no_change_index_imports_neither_lance_nor_the_indexer(indexed: Settings) -> None:
    probe = (
        "import sys\n"
        "from ctxopt.cli import main\n"
        "sys.argv = ['ctxopt', 'index', sys.argv[1], '--json']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('lance', 'lancedb', 'pyarrow', 'numpy', 'ctxopt.index.build', 'pydantic',\n"
        "         'rich', 'pathspec', 'ctxopt.discover.walk', 'ctxopt.discover.clone')\n"
        "sys.stderr.write(f'LOADED {[m for m in heavy if m in sys.modules]}')\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", probe, str(indexed.root)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    assert done.stderr.endswith("LOADED []")
    assert json.loads(done.stdout)["files"] > 0


def test_a_new_chunker_version_re_chunks_what_the_snapshot_vouched_for(
    indexed: Settings, builds: list[Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upgrade whose chunker makes other chunks (CHUNKER_VERSION bumped, ctxopt's own
    version not) must rebuild every file's chunks on the next `ctxopt index`, though no file
    changed."""
    from ctxopt.index import build

    files = app_index.index_repository(indexed).files
    assert len(builds) == 1  # answered by the snapshot
    monkeypatch.setattr(snapshot, "CHUNKER_VERSION", build.CHUNKER_VERSION + 1)
    monkeypatch.setattr(build, "CHUNKER_VERSION", build.CHUNKER_VERSION + 1)
    stats = app_index.index_repository(indexed)
    assert len(builds) == 2
    assert stats.added + stats.changed == files  # every file chunked again


def test_a_query_on_chunks_of_an_older_chunker_says_so_until_reindexed(
    indexed: Settings, builds: list[Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ctxopt.index import build

    newer = build.CHUNKER_VERSION + 1
    for module in (snapshot, build, app_refresh):
        monkeypatch.setattr(module, "CHUNKER_VERSION", newer)
    for _ in range(2):  # the check that finds nothing changed must not silence it
        said: list[str] = []
        app_refresh.refresh_index(indexed, refresh=True, notify=said.append)
        assert said == [app_refresh.OLD_CHUNKS_WARNING]
    assert len(builds) == 1  # a query does not rebuild every chunk by itself
    app_index.index_repository(indexed)
    said = []
    app_refresh.refresh_index(indexed, refresh=True, notify=said.append)
    assert said == []
