"""`ctxopt mcp --path URL`: the clone is indexed before serving, so the first call answers,
and --ref picks the commit served."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import bare_remote, push_to
from mcpclient import call, data, mcp_session, run

pytestmark = pytest.mark.slow

FILES = {"inventory/stock.py": "def count_stock_items(shelf):\n    return len(shelf)\n"}


def _names(url: str, *args: str, errlog: Path) -> set[str]:
    async def conversation() -> set[str]:
        async with mcp_session(url, *args, errlog=errlog) as session:
            hits = data(await call(session, "query", {"task": "count stock items, place order"}))
            return {str(hit["name"]) for hit in hits["results"]}

    return run(conversation)


def test_a_url_is_cloned_and_indexed_before_the_first_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CTXOPT_REPOS_DIR", str(tmp_path / "clones"))
    work, bare = bare_remote(tmp_path / "served", FILES)
    push_to(work, {"inventory/orders.py": "def place_order_quickly(o):\n    return o\n"})
    url = bare.as_uri()

    newest = _names(url, errlog=tmp_path / "err")
    assert {"count_stock_items", "place_order_quickly"} <= newest
    assert "indexing" in (tmp_path / "err").read_text()  # said on stderr, not in the protocol

    tagged = _names(url, "--ref", "v1", errlog=tmp_path / "err1")
    assert "count_stock_items" in tagged and "place_order_quickly" not in tagged
