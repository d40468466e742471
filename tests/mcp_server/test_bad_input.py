"""Bad arguments come back as tool errors of one line, and the server keeps answering."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcpclient import call, data, mcp_session, run, text

pytestmark = pytest.mark.slow

BAD_CALLS: list[tuple[str, dict[str, object], str]] = [
    # (tool, arguments, words the message must hold)
    ("pack", {}, "'task' is a required property"),
    ("pack", {"task": 5}, "task: 5 is not of type 'string'"),
    ("pack", {"task": ""}, "task:"),
    ("pack", {"task": "fix it", "budget": "lots"}, "budget: 'lots' is not of type 'integer'"),
    ("pack", {"task": "fix it", "budget": 0}, "budget: 0 is less than the minimum of 1"),
    ("pack", {"task": "fix it", "budgit": 3000}, "'budgit' was unexpected"),
    ("pack", {"task": "fix it", "compression": "extreme"}, "`compression` must be one of"),
    ("pack", {"task": "fix it", "budget": 40}, "budget of 40 tokens cannot hold"),
    ("pack", {"task": "fix it", "model": "no-such-model-9"}, "no-such-model-9"),
    ("query", {"task": "x", "kind": ["gadget"]}, "gadget"),
    ("query", {"task": "x", "top": 1.5}, "top:"),
    ("read_chunk", {"id": "not-an-id"}, "id: 'not-an-id' does not match"),
    ("read_chunk", {"id": "0" * 40}, "no chunk with id"),
    ("read_file", {"path": "../outside.txt"}, "outside the repository"),
    ("read_file", {"path": "/etc/hostname"}, "outside the repository"),
    ("read_file", {"path": "escape/outside.txt"}, "outside the repository"),
    ("read_file", {"path": ".env"}, "not an indexed file"),
    ("read_file", {"path": "inventory/storage.py", "start_line": 900}, "past its end"),
    ("read_file", {"path": "inventory/storage.py\u0000x"}, "not an indexed file"),
    # a ref git would read as an option: `--output=FILE` made git diff write any file
    ("pack", {"task": "fix it", "diff_ref": "--output=pwned.txt"}, "is not a commit, branch"),
    ("stats", {"depth": 0}, "depth: 0 is less than the minimum of 1"),
    ("no_such_tool", {}, "no_such_tool"),
]


def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(
    own_indexed_repo: Path, tmp_path: Path
) -> None:
    repo = own_indexed_repo
    (repo.parent / "outside.txt").write_text("not yours\n", encoding="utf-8")
    os.symlink(repo.parent, repo / "escape")  # a link out of the repository
    (repo / ".env").write_text("DB_PASSWORD=hunter2hunter2\n", encoding="utf-8")

    async def conversation() -> tuple[list[object], object]:
        async with mcp_session(repo, errlog=tmp_path / "err") as session:
            results = [await call(session, tool, args) for tool, args, _ in BAD_CALLS]
            after = await call(session, "query", {"task": "reserve stock", "top": 3})
            return results, after

    results, after = run(conversation)
    assert not (repo / "pwned.txt").exists()
    for (tool, arguments, words), result in zip(BAD_CALLS, results, strict=True):
        message = text(result)
        assert result.is_error, (tool, arguments, message)
        assert words in message, (tool, arguments, message)
        assert "\n" not in message.strip() and "Traceback" not in message, message
        assert "hunter2" not in message
    assert len(data(after)["results"]) == 3
