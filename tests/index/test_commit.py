"""The commit marker: interrupted runs resumed or rolled back, damage detected, one writer."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

import lance
import pytest

from ctxopt.config.settings import Settings, load_settings
from ctxopt.errors import IndexBusyError, IndexCorruptError, IndexIncompleteError
from ctxopt.index.build import build_index
from ctxopt.index.commit import MARKER, IndexState, index_state, read_commit
from ctxopt.index.lock import index_lock
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader, IndexWriter
from ctxopt.retrieve.candidates import CandidateSource
from helpers import HashEmbedder, sample_repo


def built(tmp_path: Path) -> Settings:
    settings = load_settings(sample_repo(tmp_path))
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


def chunk_keys(reader: IndexReader) -> Counter[tuple[str, int, int, str]]:
    table = reader.dataset("chunks").to_table(
        columns=["path", "start_line", "end_line", "content_hash"]
    )
    return Counter(
        (r["path"], r["start_line"], r["end_line"], r["content_hash"]) for r in table.to_pylist()
    )


def full_text_works(reader: IndexReader) -> bool:
    return bool(CandidateSource(reader).full_text("inventory storage", 5))


def test_a_build_commits_the_versions_readers_open(tmp_path: Path) -> None:
    settings = built(tmp_path)
    commit = read_commit(settings.db_path)
    assert commit is not None
    reader = IndexReader(settings.db_path)
    assert {n: reader.dataset(n).version for n in commit.versions} == commit.versions
    assert full_text_works(reader)


def test_readers_keep_the_committed_version_while_a_run_writes(tmp_path: Path) -> None:
    settings = built(tmp_path)
    before = chunk_keys(IndexReader(settings.db_path))
    writer = IndexWriter(settings.db_path, 256)
    writer.replace_chunks(["inventory/storage.py"], None)  # a run killed mid-way
    assert chunk_keys(IndexReader(settings.db_path)) == before
    assert chunk_keys(IndexReader(settings.db_path, committed=False)) != before
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)  # rolls back, then refreshes
    assert chunk_keys(IndexReader(settings.db_path)) == before


def test_an_index_without_marker_is_refused_then_resumed(tmp_path: Path) -> None:
    settings = built(tmp_path)
    clean = chunk_keys(IndexReader(settings.db_path))
    writer = IndexWriter(settings.db_path, 256)
    writer.replace_chunks(["inventory/storage.py", "inventory/api.py"], None)
    (settings.db_path / MARKER).unlink()  # as if the first run died before its commit
    assert index_state(settings.db_path) is IndexState.INCOMPLETE
    with pytest.raises(IndexIncompleteError, match="run `ctxopt index` to finish it"):
        IndexReader(settings.db_path)
    stats = build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert stats.files == len(IndexReader(settings.db_path).file_records())
    reader = IndexReader(settings.db_path)
    assert chunk_keys(reader) == clean
    assert full_text_works(reader)


def test_resuming_a_run_killed_while_writing_the_graph_rewrites_it(tmp_path: Path) -> None:
    settings = built(tmp_path)
    graph = IndexReader(settings.db_path).graph()
    assert graph.imports  # the sample repository's modules import each other
    (settings.db_path / MARKER).unlink()  # the first run died before its commit ...
    shutil.rmtree(settings.db_path / "graph.lance" / "_versions")  # ... creating the graph
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert IndexReader(settings.db_path).graph() == graph


def test_resuming_drops_chunks_the_files_table_does_not_claim(tmp_path: Path) -> None:
    settings = built(tmp_path)
    clean = chunk_keys(IndexReader(settings.db_path))
    files = lance.dataset(str(settings.db_path / "files.lance"))
    files.delete("path = 'inventory/storage.py'")  # chunks written, files row not yet
    (settings.db_path / MARKER).unlink()
    (settings.db_path.parent / "inventory" / "storage.py").unlink()  # and the file went away
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    keys = chunk_keys(IndexReader(settings.db_path))
    assert keys == Counter({k: n for k, n in clean.items() if k[0] != "inventory/storage.py"})


@pytest.mark.parametrize("damage", ["delete_table", "truncate_file", "garbage_marker"])
def test_damage_is_detected_and_full_repairs_it(tmp_path: Path, damage: str) -> None:
    settings = built(tmp_path)
    clean = chunk_keys(IndexReader(settings.db_path))
    db = settings.db_path
    if damage == "delete_table":
        import shutil

        shutil.rmtree(db / "files.lance")
    elif damage == "truncate_file":
        data = next((db / "chunks.lance" / "data").iterdir())
        os.truncate(data, data.stat().st_size // 2)
    else:
        (db / MARKER).write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexCorruptError, match="ctxopt index --full"):
        IndexReader(db)
    with pytest.raises(IndexCorruptError, match="ctxopt index --full"):
        build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    build_index(settings, full=True, embedder=HashEmbedder(), workers=IN_PROCESS)
    reader = IndexReader(db)
    assert chunk_keys(reader) == clean
    assert full_text_works(reader)


def test_a_second_run_is_refused_or_waits(tmp_path: Path) -> None:
    settings = built(tmp_path)
    busy = rf"\(pid {os.getpid()}\); wait for it or pass --wait"
    with index_lock(settings.db_path), pytest.raises(IndexBusyError, match=busy):
        build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    released = threading.Event()

    def hold() -> None:
        with index_lock(settings.db_path):
            ready.set()
            time.sleep(1.0)
            released.set()

    ready = threading.Event()
    holder = threading.Thread(target=hold)
    holder.start()
    ready.wait()
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS, wait=True)
    assert released.is_set()  # it only ran once the holder let go
    holder.join()
