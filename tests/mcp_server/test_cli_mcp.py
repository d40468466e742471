"""`ctxopt mcp` on the command line: a bad folder is one line and exit 2, before serving."""

from __future__ import annotations

from pathlib import Path

from clitools import assert_one_line_error, run_cli


def test_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    done = run_cli("mcp", "--path", str(tmp_path / "nowhere"))
    assert_one_line_error(done)
    assert done.code == 2 and "nowhere does not exist" in done.err
    assert done.out == ""


def test_json_is_not_an_option_of_mcp() -> None:
    done = run_cli("mcp", "--json")
    assert_one_line_error(done)
    assert done.code == 2 and "--json" in done.err and done.out == ""
