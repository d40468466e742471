"""`ctxopt mcp` through a real SDK client session over stdio: the tools, their schemas and
an answer from each, against a real git repository indexed with the default model."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.types import CallToolResult

from mcpclient import call, data, mcp_session, run, text

pytestmark = pytest.mark.slow

TOOLS = {"query", "pack", "read_chunk", "read_file", "refresh", "stats"}


def test_the_tools_are_listed_with_closed_schemas(indexed_repo: Path, tmp_path: Path) -> None:
    async def conversation() -> dict[str, dict]:
        async with mcp_session(indexed_repo, errlog=tmp_path / "err") as session:
            listed = await session.list_tools()
            return {tool.name: tool.input_schema for tool in listed.tools}

    schemas = run(conversation)
    assert set(schemas) == TOOLS
    assert all(schema["additionalProperties"] is False for schema in schemas.values())
    pack = schemas["pack"]
    assert pack["required"] == ["task"]
    assert pack["properties"]["task"]["minLength"] == 1
    compression = pack["properties"]["compression"]  # any case: the values as examples
    assert compression["examples"] == ["none", "light", "medium", "aggressive"]
    assert "any case" in compression["description"]
    for option in ("budget", "model", "format", "glob", "diff", "diff_ref", "staged", "edges"):
        assert option in pack["properties"], option
    assert schemas["read_chunk"]["required"] == ["id"]
    assert schemas["read_file"]["required"] == ["path"]


def test_each_tool_answers(indexed_repo: Path, tmp_path: Path) -> None:
    storage = (indexed_repo / "inventory" / "storage.py").read_text(encoding="utf-8")

    async def conversation() -> dict[str, object]:
        async with mcp_session(indexed_repo, errlog=tmp_path / "err") as session:
            return {
                "pack": await call(
                    session,
                    "pack",
                    {"task": "fix save_inventory when the file is missing", "budget": 3000},
                ),
                "explained": await call(
                    session, "pack", {"task": "reserve stock", "budget": 600, "explain": True}
                ),
                "query": await call(
                    session, "query", {"task": "load the inventory from disk", "top": 5}
                ),
                "glob": await call(
                    session,
                    "pack",
                    {"task": "reserve stock", "budget": 3000, "glob": ["web/**"], "format": "xml"},
                ),
                "lines": await call(
                    session,
                    "read_file",
                    {"path": "inventory/storage.py", "start_line": 2, "end_line": 4},
                ),
                "stats": await call(session, "stats", {"top": 3}),
                "refresh": await call(session, "refresh", {}),
                "chunk": await _first_hit_read(session),
            }

    answers = run(conversation)
    pack = answers["pack"]
    packed = data(pack)
    assert "save_inventory" in text(pack)  # the text is the prompt itself
    assert packed["tokens"] <= packed["budget"] == 3000
    assert any(c["name"] == "save_inventory" for c in packed["chunks"])
    assert all(len(c["id"]) == 40 and "compressed" not in c for c in packed["chunks"])
    assert "prompt" not in packed and "left_out" not in packed
    explained = data(answers["explained"])  # until 2026-12-02 no tool said what was left out
    left_out = explained["left_out"]
    assert left_out and all(d["why"] and d["why_code"] for d in left_out)
    packed_ids = {(c["file"], c["start_line"]) for c in explained["chunks"]}
    assert not packed_ids & {(d["file"], d["start_line"]) for d in left_out}
    lowest = min(c["score"] for c in explained["chunks"] if c["fidelity"] != "path")
    assert all(d["ranked_above_the_last_packed"] == (d["score"] >= lowest) for d in left_out)

    hits = data(answers["query"])["results"]
    assert 0 < len(hits) <= 5
    assert hits[0]["file"] == "inventory/storage.py"

    only_web = data(answers["glob"])
    assert text(answers["glob"]).lstrip().startswith("<prompt>")
    assert only_web["chunks"] and all(c["file"].startswith("web/") for c in only_web["chunks"])

    lines = data(answers["lines"])
    assert lines["text"] == "\n".join(storage.splitlines()[1:4])
    assert text(answers["lines"]).startswith("inventory/storage.py:2-4 of ")

    stats = data(answers["stats"])
    assert stats["files"] >= 10 and len(stats["largest_files"]) == 3
    refreshed = data(answers["refresh"])
    assert (refreshed["added"], refreshed["changed"], refreshed["deleted"]) == (0, 0, 0)

    chunk_hit, chunk = answers["chunk"]
    read = data(chunk)
    assert read["id"] == chunk_hit["id"]
    source = (indexed_repo / read["file"]).read_text(encoding="utf-8").splitlines()
    assert read["text"] == "\n".join(source[read["start_line"] - 1 : read["end_line"]])


async def _first_hit_read(session: ClientSession) -> tuple[dict, CallToolResult]:
    hits = data(await call(session, "query", {"task": "reserve stock in the warehouse"}))
    first = hits["results"][0]
    return first, await call(session, "read_chunk", {"id": first["id"]})
