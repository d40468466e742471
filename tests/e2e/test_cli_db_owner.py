"""An index kept outside its repository (`--db DIR`) serves the folder that built it: a second
repository given the same --db is refused in one line, the index left as it was, until it is
rebuilt for that folder with --full.  An index in the repository's own `.ctxopt/` moves with it."""

from __future__ import annotations

import shutil
from pathlib import Path

from clitools import CliRunner, assert_one_line_error
from helpers import commit_all, init_repo, write_files


def _repo(tmp_path: Path, name: str, code: str) -> Path:
    repo = init_repo(tmp_path / name)
    write_files(repo, {f"{name}.py": code})
    commit_all(repo)
    return repo


def test_a_second_repository_is_refused_an_index_it_does_not_own(
    tmp_path: Path, cli: CliRunner
) -> None:
    billing = _repo(tmp_path, "billing", "def refund_invoice(invoice):\n    return invoice\n")
    weather = _repo(tmp_path, "weather", "def forecast_rain(city):\n    return city\n")
    db = str(tmp_path / "shared")
    assert cli("index", str(billing), "--db", db, "--quiet").code == 0
    for args in (
        ("index", str(weather), "--db", db),
        ("stats", "--path", str(weather), "--db", db),
        ("query", "forecast rain", "--path", str(weather), "--db", db),
        ("pack", "forecast rain", "--path", str(weather), "--db", db, "--no-refresh"),
    ):
        refused = cli(*args)
        assert_one_line_error(refused)
        assert f"belongs to {billing}, not {weather}" in refused.err, args
        assert f"ctxopt index {weather} --full --db {db}" in refused.err
    kept = cli("query", "refund invoice", "--path", str(billing), "--db", db, "--json")
    assert [hit["file"] for hit in kept.json()] == ["billing.py"]  # type: ignore[union-attr]
    assert cli("index", str(weather), "--db", db, "--full", "--quiet").code == 0
    rebuilt = cli("query", "forecast rain", "--path", str(weather), "--db", db, "--json")
    assert [hit["file"] for hit in rebuilt.json()] == ["weather.py"]  # type: ignore[union-attr]
    assert_one_line_error(cli("query", "refund", "--path", str(billing), "--db", db))


def test_an_index_in_the_repository_moves_with_it(tmp_path: Path, cli: CliRunner) -> None:
    billing = _repo(tmp_path, "billing", "def refund_invoice(invoice):\n    return invoice\n")
    assert cli("index", str(billing), "--quiet").code == 0
    moved = tmp_path / "moved"
    shutil.move(billing, moved)
    found = cli("query", "refund invoice", "--path", str(moved), "--json")
    assert found.code == 0, found.err
    assert [hit["file"] for hit in found.json()] == ["billing.py"]  # type: ignore[union-attr]


def test_a_db_that_is_the_repository_or_a_source_folder_is_refused(
    tmp_path: Path, cli: CliRunner
) -> None:
    billing = _repo(tmp_path, "billing", "def refund_invoice(invoice):\n    return invoice\n")
    (billing / "docs").mkdir()
    (billing / "docs" / "guide.md").write_text("# Refunds\n")
    for db, why in (
        (billing, "is the repository folder itself"),
        (tmp_path, f"holds the repository {billing}"),
        (billing / "docs", "holds other files (guide.md), not an index"),
    ):
        refused = cli("index", str(billing), "--db", str(db))
        assert_one_line_error(refused)
        assert why in refused.err
    assert sorted(p.name for p in billing.iterdir()) == [".git", "billing.py", "docs"]
    assert sorted(p.name for p in (billing / "docs").iterdir()) == ["guide.md"]  # nothing written
    inside = billing / "index"
    assert cli("index", str(billing), "--db", str(inside), "--quiet").code == 0
    again = cli("index", str(billing), "--db", str(inside), "--json")
    assert again.code == 0, again.err
    assert again.json()["files"] == 2  # type: ignore[index]  # its own files are not read
