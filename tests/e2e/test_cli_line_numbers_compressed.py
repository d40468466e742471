"""`pack --line-numbers` numbers chunks whose comments compression dropped: each number is
the file line that row is, and the dropped comments leave jumps, not wrong numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clitools import CliRunner, run_cli
from helpers import commit_all, init_repo, write_files

NUMBERED = re.compile(r"^ *(\d+)\| (.*)$")
TASK = "retry the upload when the server answers 503"


def upload_module() -> str:
    lines = ["import time", "", ""]
    for i in range(6):
        lines += [
            f"def upload_part_{i}(client, part):",
            f'    """Upload part {i}, retrying when the server answers 503."""',
            "    # the server answers 503 while it is busy: wait and retry",
            "    for attempt in range(3):  # three tries are enough",
            "        answer = client.put(part)",
            "        # a 503 means busy",
            "        if answer.status != 503:",
            "            return answer",
            f"        time.sleep(attempt * {i + 1})  # back off",
            "    return None",
            "",
            "",
        ]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = init_repo(tmp_path_factory.mktemp("numbers") / "repo")
    write_files(repo, {"upload.py": upload_module()})
    commit_all(repo)
    result = run_cli("index", str(repo), "--quiet")
    assert result.code == 0, result.err
    return repo


def _numbered(out: str) -> list[re.Match[str]]:
    section = out.split("## upload.py")[1].split("\n## ")[0]
    return [m for m in map(NUMBERED.match, section.split("\n")) if m]


def test_compressed_chunks_are_numbered_as_in_the_file(repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(repo), "--budget", "3000", "--line-numbers")
    assert result.code == 0, result.err
    file_lines = (repo / "upload.py").read_text().split("\n")
    numbered = _numbered(result.out)
    assert len({m.group(2) for m in numbered if m.group(2).startswith("def upload_part_")}) == 6
    assert not any("# a 503 means busy" in m.group(2) for m in numbered)  # light compression
    for match in numbered:
        line = file_lines[int(match.group(1)) - 1]
        assert line == match.group(2) or line.startswith(match.group(2) + "  # ")


def test_no_compression_numbers_every_row(repo: Path, cli: CliRunner) -> None:
    args = ("pack", TASK, "--path", str(repo), "--budget", "3000", "--line-numbers")
    result = cli(*args, "--compression", "none")
    assert result.code == 0, result.err
    file_lines = (repo / "upload.py").read_text().split("\n")
    numbered = _numbered(result.out)
    assert any("# a 503 means busy" in m.group(2) for m in numbered)
    assert all(file_lines[int(m.group(1)) - 1] == m.group(2) for m in numbered)


def long_function() -> str:
    lines = ["def settle_accounts(ledger, rates):", '    """Settle every account."""']
    for i in range(120):
        lines.append(f"    ledger.post(account_{i}, rates.lookup({i}) * ledger.balance_{i})")
        if i == 80:
            lines += [
                "    # refunds in foreign currency are converted at the booking rate",
                "    refund_total = ledger.refunds.convert(rates.booking_rate)",
            ]
    lines.append("    return ledger")
    return "\n".join(lines) + "\n"


def test_an_excerpt_is_numbered_and_its_marker_is_not(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"ledger.py": long_function()})
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    task = "refunds in foreign currency use the booking rate"
    args = ("pack", task, "--path", str(repo), "--budget", "2000", "--line-numbers", "--json")
    data = cli(*args).json()
    assert [c["fidelity"] for c in data["chunks"]] == ["excerpt"]
    file_lines = (repo / "ledger.py").read_text().split("\n")
    body = data["prompt"].split("```python\n")[1].split("\n```")[0].split("\n")
    numbered = [m for m in map(NUMBERED.match, body) if m]
    markers = [row for row in body if "elided" in row]
    assert markers and all(re.match(r"^ +\| ", row) for row in markers)  # no number
    assert len(numbered) + len(markers) == len(body)
    assert any("refund_total = ledger.refunds.convert" in m.group(2) for m in numbered)
    for match in numbered:
        assert file_lines[int(match.group(1)) - 1] == match.group(2)
