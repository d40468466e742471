"""scripts/compare_index.py: identical indexes compare equal; a changed text, a vector that
differs only in the sign of a zero, or a missing row are reported with exit status 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import lancedb
import pyarrow as pa

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "compare_index.py"


def write(db: Path, *, text: str = "def f(): pass", zero: float = 0.0, rows: int = 2) -> None:
    connection = lancedb.connect(str(db))
    vectors = pa.array([[zero, 1.0]] * rows, type=pa.list_(pa.float32(), 2))
    chunks = pa.table(
        {
            "id": [f"c{i}" for i in range(rows)],
            "text": [text] * rows,
            "vector": vectors,
        }
    )
    files = pa.table({"path": ["a.py", "b.py"], "size": [1, 2]})
    graph = pa.table(
        {"path": ["b.py", "a.py"], "imports": pa.array([["a.py"], []], pa.list_(pa.string()))}
    )
    for name, table in (("chunks", chunks), ("files", files), ("graph", graph)):
        connection.create_table(name, table)


def compare(a: Path, b: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(a), str(b)], capture_output=True, text=True
    )


def test_identical_indexes_compare_equal(tmp_path: Path) -> None:
    write(tmp_path / "a")
    write(tmp_path / "b")
    done = compare(tmp_path / "a", tmp_path / "b")
    assert done.returncode == 0, done.stdout
    assert done.stdout == ""


def test_differences_are_named_by_column(tmp_path: Path) -> None:
    write(tmp_path / "a")
    write(tmp_path / "text", text="def g(): pass")
    write(tmp_path / "zero", zero=-0.0)
    write(tmp_path / "short", rows=1)
    text = compare(tmp_path / "a", tmp_path / "text")
    assert text.returncode == 1 and "chunks.text: 2 rows differ" in text.stdout
    zero = compare(tmp_path / "a", tmp_path / "zero")
    assert zero.returncode == 1 and "chunks.vector" in zero.stdout
    short = compare(tmp_path / "a", tmp_path / "short")
    assert short.returncode == 1 and "chunks: schema or row count differs" in short.stdout


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_help_describes_the_arguments() -> None:
    done = run_script("--help")
    assert done.returncode == 0, done.stderr
    assert "DB_A" in done.stdout and "DB_B" in done.stdout and "Exit status" in done.stdout


def test_a_missing_argument_is_a_one_line_usage_error() -> None:
    for args in ((), ("only_one",)):
        done = run_script(*args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert "required: " in done.stderr and "DB_B" in done.stderr
