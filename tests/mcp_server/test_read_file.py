"""`read_file` holds a read to 2,000 lines and 100,000 characters: a longer range is cut at a
line's end (a single longer line at MAX_CHARS), says so and says where to read on."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpclient import call, data, mcp_session, run, text

pytestmark = pytest.mark.slow

MAX_CHARS = 100_000  # the cap README documents
WIDE_LINE = "# " + "y" * 998  # 1,000 characters: 99 lines and their breaks fit in 100,000


def test_long_reads_are_cut_by_characters(own_indexed_repo: Path, tmp_path: Path) -> None:
    repo = own_indexed_repo
    long_line = 'BLOB = "' + "a" * 900_000 + '"'
    (repo / "inventory" / "blob.py").write_text(long_line + "\n", encoding="utf-8")
    (repo / "inventory" / "wide.py").write_text((WIDE_LINE + "\n") * 300, encoding="utf-8")

    async def conversation() -> list[dict[str, object]]:
        async with mcp_session(repo, errlog=tmp_path / "err") as session:
            reads = [
                ("inventory/blob.py", {}),
                ("inventory/wide.py", {}),
                ("inventory/wide.py", {"start_line": 100, "end_line": 150}),
            ]
            results = [
                await call(session, "read_file", {"path": path, **more}) for path, more in reads
            ]
            return [{"data": data(r), "text": text(r)} for r in results]

    blob, wide, rest = run(conversation)

    one = blob["data"]
    assert isinstance(one, dict)
    assert one["truncated"] is True and one["end_line"] == 1 and one["next_line"] is None
    assert one["text"] == long_line[:MAX_CHARS]
    assert one["cut_line_chars"] == len(long_line)
    assert "its first 100,000 are shown" in str(one["note"]) in str(blob["text"])

    first = wide["data"]
    assert isinstance(first, dict)
    assert (first["start_line"], first["end_line"], first["next_line"]) == (1, 99, 100)
    assert first["truncated"] is True and len(str(first["text"])) <= MAX_CHARS
    assert "read on with start_line 100" in str(wide["text"]).split("\n")[0]

    whole = rest["data"]
    assert isinstance(whole, dict)
    assert (whole["start_line"], whole["end_line"], whole["truncated"]) == (100, 150, False)
    assert whole["next_line"] is None and "note" not in whole
