"""A tool error names the tool's arguments (`budget`), not the CLI's flags (`--budget`),
where the message tells the agent what to change; the CLI keeps its flags."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clitools import run_cli
from ctxopt.config.settings import load_settings
from ctxopt.index.lock import index_lock
from mcpclient import call, mcp_session, run, text

pytestmark = pytest.mark.slow

CALLS: list[tuple[str, dict[str, object], str]] = [
    # (tool, arguments, words the message must hold)
    ("pack", {"task": "fix it", "budget": 40}, "raise `budget`"),
    ("pack", {"task": "fix it", "compression": "extreme"}, "`compression` must be one of"),
    ("pack", {"task": "fix it", "diff_ref": "-x"}, "`diff_ref` '-x' is not a commit"),
    ("pack", {"task": "fix it", "diff_ref": "HEAD..nope-9"}, "`diff_ref`: 'nope-9' is not"),
    ("pack", {"task": "fix it", "model": "gpt-4"}, "give one of these as `model`"),
    ("query", {"task": "x", "lang": ["cobol"]}, "`lang` 'cobol' is not a language"),
    ("query", {"task": "x", "kind": ["gadget"]}, "`kind` 'gadget' is not a chunk kind"),
    ("refresh", {}, "call again later"),  # another index run holds the index
]
FLAG = re.compile(r"(?<![\w-])--[a-z]")  # a CLI flag such as --budget


def test_tool_errors_name_arguments(own_indexed_repo: Path, tmp_path: Path) -> None:
    repo = own_indexed_repo

    async def conversation() -> list[str]:
        async with mcp_session(repo, errlog=tmp_path / "err") as session:
            answers = []
            for tool, arguments, _ in CALLS:
                if tool == "refresh":
                    with index_lock(load_settings(repo).db_path):
                        answers.append(text(await call(session, tool, arguments)))
                else:
                    answers.append(text(await call(session, tool, arguments)))
            return answers

    for (tool, arguments, words), message in zip(CALLS, run(conversation), strict=True):
        assert words in message, (tool, arguments, message)
        assert not FLAG.search(message), (tool, arguments, message)


def test_the_cli_still_names_its_flags(indexed_repo: Path) -> None:
    small = run_cli("pack", "fix it", "--path", str(indexed_repo), "--budget", "40")
    assert small.code == 3 and "raise --budget" in small.err and "`budget`" not in small.err
    bad = run_cli("query", "x", "--path", str(indexed_repo), "--lang", "cobol")
    assert bad.code == 2 and "--lang 'cobol' is not a language" in bad.err
