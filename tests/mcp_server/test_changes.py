"""Files changed between calls are re-indexed before the next answer; a missing index is
named, and the refresh tool builds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import sample_repo
from mcpclient import call, data, mcp_session, run, text

pytestmark = pytest.mark.slow

NEW_FUNCTION = '''

def quarantine_damaged_pallets(warehouse, sku):
    """Move damaged pallets of a SKU to the quarantine shelf."""
    return warehouse.reserve(sku, 0)
'''


def test_a_change_between_calls_shows_in_the_next_answer(
    own_indexed_repo: Path, tmp_path: Path
) -> None:
    repo = own_indexed_repo
    models = repo / "inventory" / "models.py"
    task = "quarantine damaged pallets"

    async def conversation() -> dict[str, object]:
        async with mcp_session(repo, errlog=tmp_path / "err") as session:
            before = await call(session, "query", {"task": task, "top": 3})
            with models.open("a", encoding="utf-8") as out:
                out.write(NEW_FUNCTION)
            after = await call(session, "query", {"task": task, "top": 3})
            packed = await call(session, "pack", {"task": task, "budget": 2000})
            review = await call(
                session, "pack", {"task": "review this change", "diff": True, "budget": 3000}
            )
            lines = await call(session, "read_file", {"path": "inventory/models.py"})
            (repo / "inventory" / "errors.py").unlink()
            gone = await call(session, "read_file", {"path": "inventory/errors.py"})
            hits = data(await call(session, "query", {"task": "StorageError", "top": 10}))
            return {
                "review": review,
                "before": before,
                "after": after,
                "pack": packed,
                "lines": lines,
                "gone": gone,
                "hits": hits,
            }

    answers = run(conversation)
    names = [hit["name"] for hit in data(answers["before"])["results"]]
    assert "quarantine_damaged_pallets" not in names
    first = data(answers["after"])["results"][0]
    assert (first["name"], first["file"]) == ("quarantine_damaged_pallets", "inventory/models.py")
    assert data(answers["after"])["stale_files"] == 0
    assert "def quarantine_damaged_pallets(warehouse, sku):" in text(answers["pack"])
    review = data(answers["review"])
    assert "+def quarantine_damaged_pallets(warehouse, sku):" in text(answers["review"])
    assert any(c["why_code"] == "changed" for c in review["chunks"])
    assert data(answers["lines"])["text"].endswith("return warehouse.reserve(sku, 0)")
    assert answers["gone"].is_error and "not an indexed file" in text(answers["gone"])
    assert all(h["file"] != "inventory/errors.py" for h in answers["hits"]["results"])
    assert "refreshing the index: 1 file changed" in (tmp_path / "err").read_text()


def test_without_an_index_tools_name_it_and_refresh_builds_it(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)

    async def conversation() -> tuple[object, object, object]:
        async with mcp_session(repo, errlog=tmp_path / "err") as session:
            missing = await call(session, "query", {"task": "reserve stock"})
            built = await call(session, "refresh", {})
            found = await call(session, "query", {"task": "reserve stock"})
            return missing, built, found

    missing, built, found = run(conversation)
    assert missing.is_error and "run `ctxopt index` first" in text(missing)
    assert text(missing).endswith("(or call the refresh tool)")  # what an agent can do
    assert data(built)["added"] == data(built)["files"] > 0
    assert "reserve" in data(found)["results"][0]["name"]
