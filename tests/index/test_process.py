"""Worker processes: a file that kills its worker costs only that file."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from ctxopt.index import file_jobs, process
from ctxopt.languages import detect_language
from ctxopt.types import SourceFile

CRASHER = "mod_5.py"


def sources(tmp_path: Path, count: int) -> list[SourceFile]:
    out = []
    for i in range(count):
        target = tmp_path / f"mod_{i}.py"
        target.write_text(f"def func_{i}(x):\n    return x + {i}\n")
        stat = target.stat()
        out.append(
            SourceFile(
                target.name,
                str(target),
                stat.st_size,
                stat.st_mtime_ns,
                detect_language(target.name),
            )
        )
    return out


def crash_on_one_file(source: SourceFile, timeout_s: float) -> process.ProcessedFile:
    if source.path == CRASHER:
        os._exit(3)  # what a segfaulting parser does to its worker
    return REAL(source, timeout_s)


REAL = process.process_file


def test_a_crashing_worker_costs_only_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = sources(tmp_path, 80)
    monkeypatch.setattr(file_jobs, "process_file", crash_on_one_file)
    monkeypatch.setattr(file_jobs, "worker_context", lambda: multiprocessing.get_context("fork"))
    results = list(process.process_sharded(files, 5.0, workers=2))
    assert [r.source.path for r in results] == [s.path for s in files]
    crashed = next(r for r in results if r.source.path == CRASHER)
    assert crashed.chunked.fallback_reason == "parser crashed"
    assert crashed.chunked.chunks and crashed.content_hash
    others = [r for r in results if r.source.path != CRASHER]
    assert all(not r.chunked.fallback_reason and r.chunked.chunks for r in others)
    assert {c.name for r in others for c in r.chunked.chunks} >= {"func_0", "func_79"}


class _NoWorkers:
    """A worker pool that cannot start (no process support)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise OSError("no worker could start")


def test_without_worker_processes_files_are_still_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = sources(tmp_path, 70)
    monkeypatch.setattr(process, "WorkerPool", _NoWorkers)
    results = list(process.process_sharded(files, 5.0, workers=2))
    assert [r.source.path for r in results] == [s.path for s in files]
    assert all(not r.chunked.fallback_reason for r in results)
    assert {c.name for r in results for c in r.chunked.chunks} >= {"func_0", "func_69"}


HANGER = "mod_1.py"


def hang_on_one_file(source: SourceFile, timeout_s: float) -> process.ProcessedFile:
    if source.path == HANGER:
        import time

        time.sleep(600)  # a grammar stuck where the parse deadline cannot reach
    if source.path == CRASHER:
        os._exit(3)
    return REAL(source, timeout_s)


def test_small_runs_are_isolated_too_and_a_hang_costs_one_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = sources(tmp_path, 8)  # far below any pool threshold
    monkeypatch.setattr(file_jobs, "process_file", hang_on_one_file)
    monkeypatch.setattr(file_jobs, "worker_context", lambda: multiprocessing.get_context("fork"))
    monkeypatch.setattr(file_jobs, "HANG_SLACK_S", 2.0)
    results = list(process.process_sharded(files, 0.5, workers=1))
    assert [r.source.path for r in results] == [s.path for s in files]
    reasons = {r.source.path: r.chunked.fallback_reason for r in results}
    assert reasons.pop(HANGER) == "parser hung"
    assert reasons.pop(CRASHER) == "parser crashed"
    assert set(reasons.values()) == {""}
    assert all(r.chunked.chunks for r in results)
