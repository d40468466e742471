"""Counts in messages: "1 file", "2 files"."""

from __future__ import annotations

import pytest

from ctxopt.cli.console import Terminal
from ctxopt.cli.render_stats import index_summary
from ctxopt.types import IndexStats
from ctxopt.wording import byte_size, percent, plural, shown_path


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "0 files"), (1, "1 file"), (2, "2 files"), (1234, "1,234 files"), (-1, "-1 files")],
)
def test_plural(count: int, expected: str) -> None:
    assert plural(count, "file") == expected


def test_index_summary_says_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    stats = IndexStats(
        files=1,
        chunks=1,
        tokens=1,
        languages={"python": {"files": 1, "chunks": 1, "tokens": 1}},
        skipped={},
        added=1,
        embedded=1,
        fallback_files=1,
    )
    index_summary(Terminal(), stats)
    err = capsys.readouterr().err
    assert "1 file, 1 chunk, 1 token (+1 ~0 -0, 1 chunk embedded)" in err
    assert "parser trouble: 1 file;" in err
    assert "1 files" not in err and "1 chunks" not in err


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/app.py", "src/app.py"),
        ("dir with space/ünï 漢字.py", "dir with space/ünï 漢字.py"),
        ("we\nird.py", '"we\\nird.py"'),
        ("tab\there.py", '"tab\\there.py"'),
        ('a "quoted" \\ name\r.py', '"a \\"quoted\\" \\\\ name\\r.py"'),
        ("bell\x07\u2028.py", '"bell\\u0007\\u2028.py"'),
    ],
)
def test_shown_path_quotes_only_names_that_would_break_a_line(path: str, expected: str) -> None:
    shown = shown_path(path)
    assert shown == expected
    assert "\n" not in shown and "\r" not in shown


@pytest.mark.parametrize(
    ("value", "expected"),
    [(99.95, "99.9%"), (99.999, "99.9%"), (100.0, "100.0%"), (47.56, "47.5%"), (0.0, "0.0%")],
)
def test_percent_never_rounds_up_to_a_share_not_reached(value: float, expected: str) -> None:
    assert percent(value) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (0, "0 bytes"),
        (1, "1 byte"),
        (999, "999 bytes"),
        (1000, "1.0 KB"),
        (28_410, "28.4 KB"),
        (999_949, "999.9 KB"),
        (999_950, "1.0 MB"),
        (3_140_000, "3.1 MB"),
        (1_234_000_000, "1.2 GB"),
        (12_345_000_000_000, "12,345.0 GB"),
    ],
)
def test_byte_size(count: int, expected: str) -> None:
    assert byte_size(count) == expected
