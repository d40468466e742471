"""Choice options take any case on the command line (`--format XML`), as --lang and --kind do."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from clitools import CliRunner, assert_one_line_error

pytestmark = pytest.mark.slow
TASK = "fix save_inventory when the file is missing"


def test_format_and_compression_in_any_case(indexed_repo: Path, cli: CliRunner) -> None:
    args = ("--path", str(indexed_repo), "--format", "XML", "--compression", "Medium", "--json")
    done = cli("pack", TASK, *args)
    assert done.code == 0, done.err
    data = done.json()
    assert isinstance(data, dict)
    ElementTree.fromstring(data["prompt"])  # the xml format, not a refusal
    medium = cli("pack", TASK, "--path", str(indexed_repo), "-f", "xml", "-c", "medium", "--json")
    assert data["prompt"] == medium.json()["prompt"]  # type: ignore[index]


def test_embedder_in_any_case(indexed_repo: Path, cli: CliRunner) -> None:
    done = cli("index", str(indexed_repo), "--embedder", "Static", "--json")
    assert done.code == 0, done.err
    assert done.json()["embedder"].startswith("static")  # type: ignore[index]


@pytest.mark.parametrize(
    ("flag", "value", "accepted"),
    [
        ("--format", "yaml", "markdown, xml, plain"),
        ("--compression", "heavy", "none, light, medium, aggressive"),
    ],
)
def test_a_bad_choice_lists_the_accepted_values(
    indexed_repo: Path, cli: CliRunner, flag: str, value: str, accepted: str
) -> None:
    done = cli("pack", TASK, "--path", str(indexed_repo), flag, value)
    assert_one_line_error(done)
    assert done.code == 2
    assert flag in done.err and accepted in done.err and repr(value) in done.err
