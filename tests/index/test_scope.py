"""The scope an index was built with (include, exclude, size limit) holds for later runs and
for the refresh before a query, unless a flag, variable or config file sets it again."""

from __future__ import annotations

import json
from pathlib import Path

from ctxopt.app.refresh import refresh_index
from ctxopt.config.settings import load_settings
from ctxopt.index.build import build_index
from ctxopt.index.commit import MARKER, read_commit
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.scope import Scope, without_stored_scope
from ctxopt.index.store import IndexReader
from helpers import HashEmbedder, commit_all, init_repo, write_files


def repo_with_docs_and_data(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "scoped")
    write_files(
        repo,
        {
            "src/app.py": "def run():\n    return 1\n",
            "docs/guide.md": "# Guide\n\nHow to run it.\n",
            "data/table.py": "ROWS = [" + "1, " * 3000 + "]\n",  # about 9 KB
        },
    )
    commit_all(repo)
    return repo


def indexed_paths(db: Path) -> set[str]:
    return set(IndexReader(db).file_records())


def test_a_query_refresh_keeps_the_scope_the_index_was_built_with(tmp_path: Path) -> None:
    repo = repo_with_docs_and_data(tmp_path)
    flags = {"exclude": ("docs/**",), "max_file_bytes": 20_000}
    built = load_settings(repo, flags)
    build_index(built, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert indexed_paths(built.db_path) == {"src/app.py", "data/table.py"}
    commit = read_commit(built.db_path)
    assert commit is not None and commit.scope == Scope((), ("docs/**",), 20_000)

    plain = load_settings(repo)  # a query: no index flags
    freshness, reader = refresh_index(plain, refresh=True)
    assert freshness.stale == 0  # before: docs/ added and data/table.py (too large) dropped
    assert set(reader.file_records()) == {"src/app.py", "data/table.py"}

    write_files(repo, {"src/more.py": "def more():\n    return 2\n"})
    build_index(plain, embedder=HashEmbedder(), workers=IN_PROCESS)  # a plain `ctxopt index`
    assert indexed_paths(plain.db_path) == {"src/app.py", "src/more.py", "data/table.py"}


def test_a_flag_given_again_replaces_the_stored_scope(tmp_path: Path) -> None:
    repo = repo_with_docs_and_data(tmp_path)
    build_index(load_settings(repo, {"exclude": ("docs/**",)}), embedder=HashEmbedder())
    wider = load_settings(repo, {"exclude": ("nothing/**",)})
    build_index(wider, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert "docs/guide.md" in indexed_paths(wider.db_path)
    commit = read_commit(wider.db_path)
    assert commit is not None and commit.scope == Scope((), ("nothing/**",), 1_048_576)


def test_a_marker_without_a_scope_still_reads(tmp_path: Path) -> None:
    repo = repo_with_docs_and_data(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    marker = settings.db_path / MARKER
    data = json.loads(marker.read_text())
    del data["scope"]  # as an index written before scopes were kept
    marker.write_text(json.dumps(data))
    commit = read_commit(settings.db_path)
    assert commit is not None and commit.scope is None
    freshness, _reader = refresh_index(settings, refresh=False)
    assert freshness.stale == 0


def test_reset_scope_drops_the_stored_scope_for_this_run_and_later_ones(tmp_path: Path) -> None:
    repo = repo_with_docs_and_data(tmp_path)
    built = load_settings(repo, {"exclude": ("docs/**",), "max_file_bytes": 2_000})
    build_index(built, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert indexed_paths(built.db_path) == {"src/app.py"}

    reset = without_stored_scope(load_settings(repo))
    build_index(reset, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert indexed_paths(reset.db_path) == {"src/app.py", "docs/guide.md", "data/table.py"}
    commit = read_commit(reset.db_path)
    plain = load_settings(repo)
    assert commit is not None and commit.scope == Scope((), (), plain.max_file_bytes)
    freshness, reader = refresh_index(plain, refresh=True)  # a later query keeps it
    assert freshness.stale == 0 and len(reader.file_records()) == 3


def test_reset_scope_keeps_the_scope_a_layer_sets(tmp_path: Path) -> None:
    repo = repo_with_docs_and_data(tmp_path)
    build_index(load_settings(repo, {"exclude": ("docs/**",)}), embedder=HashEmbedder())
    reset = without_stored_scope(load_settings(repo, {"include": ("src/**",)}))
    build_index(reset, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert indexed_paths(reset.db_path) == {"src/app.py"}
