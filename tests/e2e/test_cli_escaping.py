"""Paths, names and config keys that look like rich markup are printed as written.

`app/[slug]/page.tsx` (a Next.js route) lost its `[slug]` and `lib[/x]/util.py` made rich
raise a markup error when they went through a message with markup on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clitools import CliRunner, Run, run_cli
from helpers import commit_all, init_repo, write_files

BROKEN_TSX = ")))) }}}} ]]]] <<<< >>>> ((((\n" * 5  # all ERROR nodes: line chunks, a warning
FILES = {
    "app/[slug]/page.tsx": BROKEN_TSX,
    "app/[slug]/layout.tsx": (
        "export function renderSlugLayout(slug: string): string {\n"
        "  return `<main>${slug}</main>`;\n}\n"
    ),
    "lib[/x]/util.py": (
        "def slug_to_title(slug: str) -> str:\n"
        '    """Turn a slug into a page title."""\n'
        '    return slug.replace("-", " ").title()\n'
    ),
}
CONFIG = "'bad[/x]key' = 1\n"  # an unknown key in ctxopt.toml: a warning that quotes it


@pytest.fixture(scope="module")
def odd_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repo under a folder named like a markup tag, with markup-like paths inside."""
    repo = init_repo(tmp_path_factory.mktemp("escaping") / "[work]" / "repo")
    write_files(repo, FILES)
    commit_all(repo)
    return repo


def no_markup_trouble(result: Run) -> None:
    assert result.code == 0, result.err
    assert "internal error" not in result.err
    assert "MarkupError" not in result.err


def test_index_warnings_show_paths_and_keys_as_written(odd_repo: Path, cli: CliRunner) -> None:
    config = odd_repo / "ctxopt.toml"
    config.write_text(CONFIG)
    try:
        result = cli("index", str(odd_repo), "--full")
    finally:
        config.unlink()
    no_markup_trouble(result)
    assert "app/[slug]/page.tsx: line chunks" in result.err
    assert "unknown key 'bad[/x]key' ignored" in result.err
    assert f"index: {odd_repo / '.ctxopt'}" in result.err  # the folder named [work]


def test_query_table_shows_paths_as_written(odd_repo: Path, cli: CliRunner) -> None:
    assert run_cli("index", str(odd_repo), "--quiet").code == 0
    result = cli("query", "slug title layout", "--path", str(odd_repo), "--explain", "-k", "5")
    no_markup_trouble(result)
    assert "lib[/x]/util.py:1-3" in result.out
    assert "app/[slug]/layout.tsx:1-3" in result.out


def test_pack_explain_shows_paths_as_written(odd_repo: Path, cli: CliRunner) -> None:
    assert run_cli("index", str(odd_repo), "--quiet").code == 0
    task = "fix slug_to_title in lib[/x]/util.py"
    result = cli("pack", task, "--path", str(odd_repo), "--explain", "--budget", "2000")
    no_markup_trouble(result)
    assert "+ lib[/x]/util.py:1-3 slug_to_title [full" in result.err
    assert task in result.out  # the prompt carries the task as written


def test_stats_shows_the_index_path_as_written(odd_repo: Path, cli: CliRunner) -> None:
    assert run_cli("index", str(odd_repo), "--quiet").code == 0
    result = cli("stats", "--path", str(odd_repo))
    no_markup_trouble(result)
    assert f"index: {odd_repo / '.ctxopt'}" in result.out


def test_terminal_messages_keep_brackets(capsys: pytest.CaptureFixture[str]) -> None:
    from ctxopt.cli.console import Terminal

    terminal = Terminal()
    terminal.warn("app/[slug]/page.tsx: line chunks")
    terminal.info("refreshing app/[slug]/page.tsx and lib[/x]/util.py :smile:")
    err = capsys.readouterr().err
    assert "warning: app/[slug]/page.tsx: line chunks" in err
    assert "refreshing app/[slug]/page.tsx and lib[/x]/util.py :smile:" in err
