"""The command surface: help for every command, README coverage, no torch at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from clitools import CliRunner
from helpers import ROOT, init_repo, run_in_fresh_python, write_files

COMMANDS = ("index", "query", "pack", "stats", "analyze-doc")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_and_is_in_readme(command: str, cli: CliRunner) -> None:
    result = cli(command, "--help")
    assert result.code == 0
    assert "--json" in result.out
    assert f"ctxopt {command}" in (ROOT / "README.md").read_text()


def test_help_and_query_path_never_import_torch() -> None:
    _, heavy = run_in_fresh_python(
        "import sys\n"
        "from ctxopt.cli import main\n"
        "sys.argv = ['ctxopt', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "import ctxopt.app.query, ctxopt.app.pack\n"
    )
    assert heavy == []


def test_version(cli: CliRunner) -> None:
    result = cli("--version")
    assert result.code == 0 and result.out.startswith("ctxopt ")


@pytest.mark.slow
def test_minilm_embedder_end_to_end(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "small")
    write_files(
        repo,
        {
            "billing.py": "def charge_card(amount):\n    return amount * 100\n",
            "shipping.py": "def ship_parcel(address):\n    return address.upper()\n",
        },
    )
    result = cli("index", str(repo), "--embedder", "minilm", "--json")
    assert result.code == 0, result.err
    assert result.json()["embedder"] == "minilm-l6-v2"
    hits = cli("query", "charge a credit card", "--path", str(repo), "--json").json()
    assert hits[0]["file"] == "billing.py"
    # a minilm index's vectors count by default (semantic 0.2): the task's words share
    # nothing with the code, the vectors find it ...
    semantic = cli("query", "take payment from a customer", "--path", str(repo), "--json").json()
    assert semantic[0]["file"] == "billing.py"
    assert any(r.startswith("vector #") for r in semantic[0]["reasons"])
    # ... and a weight of 0 turns them off (no model loaded, no vector candidates)
    off = cli(
        "query",
        "take payment from a customer",
        "--path",
        str(repo),
        "--json",
        env={"CTXOPT_WEIGHTS": "semantic=0"},
    ).json()
    assert not any(r.startswith("vector #") for h in off for r in h["reasons"])
    # later runs keep the index's embedder without the flag: the refresh before a query ...
    write_files(repo, {"billing.py": "def charge_card(amount):\n    return amount * 101\n"})
    refreshed = cli("query", "charge a credit card", "--path", str(repo), "--json")
    assert refreshed.code == 0, refreshed.err
    assert "refreshing the index" in refreshed.err
    # ... and a plain `ctxopt index`; a different embedder named outright still needs --full
    write_files(repo, {"shipping.py": "def ship_parcel(address):\n    return address\n"})
    again = cli("index", str(repo), "--json")
    assert again.code == 0, again.err
    assert again.json()["embedder"] == "minilm-l6-v2"
    switched = cli("index", str(repo), "--embedder", "static")
    assert switched.code != 0 and "--full" in switched.err
