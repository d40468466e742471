"""With `--json`, a failed command's stdout is one JSON value naming the error (kind, message,
exit code), so `ctxopt pack ... --json | jq .prompt` sees the failure instead of nothing; the
one line on stderr and the exit code are as without it (until 2026-12-02 stdout was empty)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clitools import CliRunner, Run, assert_one_line_error

TASK = "fix the rounding of invoice totals"


def _error_of(result: Run) -> dict[str, object]:
    """The error the JSON value on stdout names; it says what stderr's one line says."""
    assert_one_line_error(result)
    value = json.loads(result.out)
    assert list(value) == ["error"]
    error = value["error"]
    assert error["exit_code"] == result.code
    assert result.err.strip() == f"ctxopt: error: {error['message']}"
    return dict(error)


def test_a_budget_too_small_is_a_budget_error(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "10", "--json")
    error = _error_of(result)
    assert result.code == 3 and error["kind"] == "budget"
    assert "raise --budget to at least" in str(error["message"])
    plain = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "10")
    assert plain.code == 3 and plain.out == "" and plain.err == result.err


@pytest.mark.parametrize(
    "args",
    [
        ("query", TASK, "--top", "many", "--json"),  # typer's own parse error
        ("query", "", "--json"),
        ("pack", TASK, "--budget", "0", "--json"),
        ("stats", "--json", "--markdown"),
    ],
)
def test_usage_errors_are_kind_usage_exit_2(
    indexed_repo: Path, cli: CliRunner, args: tuple[str, ...]
) -> None:
    result = cli(*args, "--path", str(indexed_repo))
    assert result.code == 2
    assert _error_of(result)["kind"] == "usage"


def test_no_index_is_told_apart_from_a_failed_gate(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    """`stats` exits 1 both for a gate that failed and for a folder with no index: the JSON
    value tells which."""
    missing = cli("stats", "--json", "--path", str(tmp_path))
    assert missing.code == 1 and _error_of(missing)["kind"] == "no_index"
    gated = cli("stats", "--json", "--path", str(indexed_repo), "--max-repo-tokens", "1")
    assert gated.code == 1, gated.err
    report = json.loads(gated.out)
    assert "error" not in report and report["files"] > 0


def test_a_missing_document_and_a_missing_folder(cli: CliRunner, tmp_path: Path) -> None:
    document = cli("analyze-doc", str(tmp_path / "nope.md"), "--json")
    assert document.code == 2 and _error_of(document)["kind"] == "usage"
    folder = cli("index", str(tmp_path / "nowhere"), "--json")
    assert folder.code == 2 and _error_of(folder)["kind"] == "usage"


def test_without_json_or_for_mcp_stdout_stays_empty(indexed_repo: Path, cli: CliRunner) -> None:
    query = cli("query", TASK, "--top", "many", "--path", str(indexed_repo))
    assert query.code == 2 and query.out == ""
    mcp = cli("mcp", "--json")  # mcp's stdout is the protocol; it takes no --json
    assert mcp.code == 2 and mcp.out == ""
