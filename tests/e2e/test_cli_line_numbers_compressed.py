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
