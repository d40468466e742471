"""The watcher's filter, and a live watcher in a thread: one batch per change, none from
ctxopt's own index writes or from git's."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxopt.config.settings import load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.index.watch import ChangeFilter, WatchBatch, settle, watch_index
from helpers import HashEmbedder, commit_all, git, init_repo, write_files

TIMEOUT = 120.0


def test_the_filter_leaves_out_git_index_and_vendored_folders(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    keep = ChangeFilter(root, root / ".ctxopt")
    assert keep.relative(str(root / "src" / "a.py")) == "src/a.py"
    assert keep.relative(str(root / ".gitignore")) == ".gitignore"
    for left_out in (".git/index", ".ctxopt/chunks.lance/x", "sub/.ctxopt/x", "node_modules/a.js"):
        assert keep.relative(str(root / left_out)) is None, left_out
    for head in (
        ".git/HEAD",
        ".git/refs/heads/main",
        ".git/refs/heads/topic/x",
        ".git/packed-refs",
    ):
        assert keep(None, str(root / head)) and keep.relative(str(root / head)) is None, head
    for git_own in (".git/index", ".git/logs/HEAD", ".git/objects/ab/cd", ".git/refs/tags/v1"):
        assert not keep(None, str(root / git_own)), git_own
    assert keep.relative(str(root)) is None
    assert keep.relative(str(tmp_path / "elsewhere.py")) is None
    elsewhere = ChangeFilter(root, root / "cache" / "index")  # --db inside the tree
    assert elsewhere.relative(str(root / "cache" / "index" / "committed.json")) is None
    assert elsewhere.relative(str(root / "cache" / "out.py")) == "cache/out.py"
    assert elsewhere.relative(str(root / "dist" / "out.py")) is None  # the walk skips dist/
    assert elsewhere.relative(str(root / "target" / "out.rs")) is None  # and build outputs
    assert elsewhere.relative(str(root / "build" / "make.py")) == "build/make.py"  # in git: source


@pytest.fixture
def watching(tmp_path: Path) -> Iterator[tuple[Path, queue.Queue[WatchBatch]]]:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"src/a.py": "def alpha():\n    return 1\n", ".gitignore": "*.log\n"})
    commit_all(repo)
    settings = load_settings(repo)
    embedder = HashEmbedder()
    build_index(settings, embedder=embedder, workers=IN_PROCESS)
    batches: queue.Queue[WatchBatch] = queue.Queue()
    stop = threading.Event()

    def run() -> None:
        for batch in watch_index(settings, embedder=embedder, stop=stop, quiet_ms=100):
            batches.put(batch)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        first = batches.get(timeout=TIMEOUT)
        assert first.first and not first.indexed  # live, and nothing to catch up on
        yield repo, batches
    finally:
        stop.set()
        thread.join(timeout=TIMEOUT)


def next_batch(batches: queue.Queue[WatchBatch]) -> WatchBatch:
    return batches.get(timeout=TIMEOUT)


def test_each_change_is_one_batch_and_index_writes_are_none(
    watching: tuple[Path, queue.Queue[WatchBatch]],
) -> None:
    repo, batches = watching
    write_files(repo, {"src/a.py": "def alpha_changed():\n    return 2\n"})
    changed = next_batch(batches)
    assert changed.paths == ("src/a.py",)
    assert (changed.stats.added, changed.stats.changed, changed.stats.deleted) == (0, 1, 0)

    commit_all(repo, "second")  # writes under .git/ only, and moves the branch HEAD names
    committed = next_batch(batches)  # until 2026-12-01 none: the index kept the old HEAD
    assert committed.paths == ()
    # src/a.py is re-read if its last commit's time moved (committed since, unless within the
    # same second as the first commit); the index now records the new HEAD
    assert (committed.stats.added, committed.stats.deleted) == (0, 0)
    assert committed.stats.changed <= 1
    assert (
        IndexReader(repo / ".ctxopt").meta().last_commit == git(repo, "rev-parse", "HEAD").strip()
    )
    write_files(repo, {"noise.log": "ignored\n"})
    ignored = next_batch(batches)
    assert ignored.paths == ("noise.log",)  # the walk ignores it
    assert (ignored.stats.added, ignored.stats.changed, ignored.stats.deleted) == (0, 0, 0)

    (repo / "src" / "a.py").unlink()
    write_files(repo, {"src/b.py": "def beta():\n    return 3\n"})
    moved = next_batch(batches)
    assert moved.paths == ("src/a.py", "src/b.py")
    assert (moved.stats.added, moved.stats.deleted) == (1, 1)
    assert set(IndexReader(repo / ".ctxopt").file_records()) == {".gitignore", "src/b.py"}
    # had the index's writes (.ctxopt/) or the rest of git's (objects, index, logs) made a
    # batch, it would have come before the one for noise.log or been part of it


class _Clock:
    """A clock that moves only when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_batch_waits_while_its_file_is_still_being_written(tmp_path: Path) -> None:
    """A file saved again and again is no new path to watchfiles, which would end a batch
    every quiet period; settle waits until the file is still (or the batch's limit)."""
    target = tmp_path / "log.py"
    target.write_text("x = 0\n")
    clock = _Clock()
    sleeps: list[float] = []

    def writes_three_more_times(seconds: float) -> None:
        sleeps.append(seconds)
        clock.now += seconds
        if len(sleeps) <= 3:
            target.write_text("x = 0\n" + "y = 1\n" * len(sleeps))  # a new size each time

    settle([target], 0.3, 2.0, clock=clock, sleep=writes_three_more_times)
    assert sleeps == [0.3] * 4  # three changed looks, then one still one

    endless = []

    def never_still(seconds: float) -> None:
        endless.append(seconds)
        clock.now += seconds
        target.write_text("z = 2\n" * (len(endless) + 10))

    clock.now = 0.0
    settle([target], 0.3, 2.0, clock=clock, sleep=never_still)
    assert len(endless) == 7  # 2.0 s of changes at most: 0.3 s looks until the limit
    deleted = tmp_path / "gone.py"
    settle([deleted], 0.3, 2.0, clock=_Clock(), sleep=lambda s: None)  # a missing file is still
