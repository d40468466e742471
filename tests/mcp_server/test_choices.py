"""Choice arguments take any case, as the CLI's flags do; a word that is no choice is a
tool error listing the accepted values."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.types import CallToolResult

from mcpclient import call, mcp_session, run, text

pytestmark = pytest.mark.slow

TASK = "fix save_inventory when the file is missing"


def test_format_and_compression_take_any_case(indexed_repo: Path, tmp_path: Path) -> None:
    async def conversation() -> list[CallToolResult]:
        async with mcp_session(indexed_repo, errlog=tmp_path / "err") as session:
            return [
                await call(session, "pack", {"task": TASK, "budget": 3000, **choices})
                for choices in (
                    {"format": "XML", "compression": "Medium"},
                    {"format": " xml", "compression": "MEDIUM "},
                    {"format": "xml", "compression": "medium"},
                    {"compression": "extreme"},
                )
            ]

    upper, spaced, lower, bad = run(conversation)
    for result in (upper, spaced, lower):
        assert not result.is_error, text(result)
    assert text(upper).lstrip().startswith("<prompt>")
    assert text(upper) == text(spaced) == text(lower)
    assert bad.is_error
    assert "must be one of none, light, medium, aggressive (any case)" in text(bad)
    assert "'extreme'" in text(bad)


def test_pack_keeps_to_the_languages_and_kinds_asked_for(
    indexed_repo: Path, tmp_path: Path
) -> None:
    async def conversation() -> list[CallToolResult]:
        async with mcp_session(indexed_repo, errlog=tmp_path / "err") as session:
            return [
                await call(session, "pack", {"task": TASK, "budget": 3000, **only})
                for only in ({"lang": ["TypeScript"]}, {"kind": ["function"]}, {"lang": ["cobol"]})
            ]

    typescript, functions, bad = run(conversation)
    for result in (typescript, functions):
        assert not result.is_error, text(result)
    ts_files = {c["file"] for c in (typescript.structured_content or {})["chunks"]}
    assert ts_files and all(f.endswith(".ts") for f in ts_files), ts_files
    kinds = {c["kind"] for c in (functions.structured_content or {})["chunks"]}
    assert kinds == {"function"}, kinds
    assert bad.is_error and "cobol" in text(bad)
