"""Ctrl-C during a read of the index is an interrupt, never a damaged index.

pyarrow reports a KeyboardInterrupt raised while Lance reads a table as ArrowInvalid, a
ValueError that used to be taken for damage ("the files table cannot be read; rebuild it
with --full") and stopped a Ctrl-C'd `ctxopt index` with that advice instead of exit 130."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ctxopt import interrupts
from ctxopt.errors import IndexCorruptError
from ctxopt.index import schema
from ctxopt.index.store import IndexReader, IndexWriter
from ctxopt.types import FileRecord

ROWS = 40_000


def _index(db: Path) -> None:
    records = [
        FileRecord(
            path=f"pkg{i % 50}/module_{i}.py",
            content_hash=f"{i:040x}",
            size=100 + i,
            mtime_ns=i,
            language="python",
            tokens=i % 900,
            chunks=i % 7,
            commit_time=i,
            imports=("os", f"pkg{i % 50}"),
        )
        for i in range(ROWS)
    ]
    IndexWriter(db, 8).upsert_files(records, deleted=[])


READS_UNDER_CTRL_C = """
import json, os, signal, sys, threading, time
from collections import Counter
from pathlib import Path
from ctxopt import interrupts
from ctxopt.errors import IndexCorruptError
from ctxopt.index import schema
from ctxopt.index.store import IndexReader
interrupts.install()
outcomes = Counter()
for attempt in range(40):
    reader = IndexReader(Path(sys.argv[1]), committed=False)
    timer = threading.Timer(0.002 + 0.003 * (attempt % 10), os.kill, (os.getpid(), signal.SIGINT))
    deadline = time.monotonic() + 3.0  # a Ctrl-C Python swallows (in a finalizer) ends nothing
    try:
        timer.start()  # under load the signal may come before start returns: an interrupt too
        while time.monotonic() < deadline:
            reader._rows(schema.FILES)
        outcomes["swallowed"] += 1
    except KeyboardInterrupt:
        outcomes["interrupted"] += 1
    except IndexCorruptError as exc:
        outcomes["damaged: " + str(exc)] += 1
    finally:
        timer.join()
print(json.dumps(outcomes))
"""


def test_reads_interrupted_at_random_moments_end_as_interrupts(tmp_path: Path) -> None:
    # in a process of its own: the signal handling this test suite's earlier tests leave behind
    # (native libraries' threads and handlers) is not a user's
    _index(tmp_path / "db")
    done = subprocess.run(
        [sys.executable, "-c", READS_UNDER_CTRL_C, str(tmp_path / "db")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    outcomes = json.loads(done.stdout)
    assert set(outcomes) <= {"interrupted", "swallowed"}, outcomes
    assert outcomes.get("interrupted", 0) >= 20, outcomes


def test_a_read_error_without_an_interrupt_is_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _index(tmp_path / "db")
    reader = IndexReader(tmp_path / "db", committed=False)
    table = reader.dataset(schema.FILES)

    class Unreadable:
        def to_table(self) -> object:
            raise ValueError("External error: something broke")

    monkeypatch.setitem(reader._datasets, schema.FILES, Unreadable())
    with pytest.raises(IndexCorruptError, match="the files table cannot be read"):
        reader._rows(schema.FILES)

    class InterruptedRead:
        def to_table(self) -> object:
            interrupts.note()  # what the SIGINT handler does before the library wraps it
            raise ValueError("External error: KeyboardInterrupt: ")

    monkeypatch.setitem(reader._datasets, schema.FILES, InterruptedRead())
    with pytest.raises(KeyboardInterrupt):
        reader._rows(schema.FILES)
    assert table.count_rows() == ROWS  # nothing was damaged: the real table reads
