"""Lines are numbered as git, grep and editors number them: only `\\n` ends a line, so a form
feed, a file-separator character or U+2028 inside code does not shift the numbers that
`query` and `pack --line-numbers` give."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from clitools import CliRunner, run_cli
from helpers import commit_all, init_repo, write_files

NUMBERED = re.compile(r"^ *(\d+)\| (.*)$")

SOURCE = "\n".join(
    [
        '"""Billing rules."""',
        "\x0c",  # a page break on a line of its own, as GNU and CPython code have
        "SEPARATOR = '\x1c'  # the ASCII file separator",
        "NOTE = 'first\u2028second'  # a line separator inside a string",
        "\x0cdef unrelated_helper(value):",
        "    return value",
        "",
        "",
        "def refund_invoice(invoice, reason):",
        '    """Refund an invoice and record why the refund was made."""',
        "    invoice.refunded = True",
        "    invoice.refund_reason = reason",
        "    return invoice",
        "",
    ]
)


def git_grep_line(repo: Path, pattern: str) -> int:
    done = subprocess.run(
        ["git", "grep", "-n", "-F", pattern, "--", "billing.py"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split(":")[1])


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = init_repo(tmp_path_factory.mktemp("numbering") / "repo")
    write_files(repo, {"billing.py": SOURCE})
    commit_all(repo)
    result = run_cli("index", str(repo), "--quiet")
    assert result.code == 0, result.err
    return repo


def test_query_gives_the_line_git_gives(repo: Path, cli: CliRunner) -> None:
    result = cli("query", "refund an invoice", "--path", str(repo), "--json")
    assert result.code == 0, result.err
    hits = {hit["name"]: hit for hit in result.json()}  # type: ignore[union-attr]
    refund = hits["refund_invoice"]
    assert refund["start_line"] == git_grep_line(repo, "def refund_invoice") == 9
    assert refund["end_line"] == git_grep_line(repo, "return invoice")


def test_pack_line_numbers_match_the_file(repo: Path, cli: CliRunner) -> None:
    args = ("pack", "refund an invoice", "--path", str(repo), "--budget", "2000")
    result = cli(*args, "--line-numbers", "--compression", "none")
    assert result.code == 0, result.err
    matches = [m for m in map(NUMBERED.match, result.out.split("\n")) if m]
    numbered = {m.group(2): int(m.group(1)) for m in matches}
    assert numbered["def refund_invoice(invoice, reason):"] == git_grep_line(
        repo, "def refund_invoice"
    )
    file_lines = (repo / "billing.py").read_bytes().decode().split("\n")
    assert all(file_lines[number - 1] == text for text, number in numbered.items())
