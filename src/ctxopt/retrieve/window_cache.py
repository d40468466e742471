"""The line-window term statistics of files, kept per file content for the process's life.

Retrieval scores the line windows of the same few files call after call (the files a task's
first hits point at); splitting their lines into terms is most of that cost.  The statistics
do not depend on the task, so a long-lived process (`ctxopt mcp`) keeps them, keyed by a
hash of the file's text: a changed file has another key, so nothing stale is ever read.
Entries are dropped least recently used first once their postings pass MAX_POSTINGS.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ctxopt.bounded_cache import BoundedCache
from ctxopt.retrieve.window_terms import FileTerms, file_terms

MAX_POSTINGS = 600_000  # about 90 MB at most (some 400,000 lines of code)


class FileTermsCache(BoundedCache[FileTerms]):
    """file_terms(lines), remembered by content (thread-safe; least recently used goes once
    the postings held pass max_postings)."""

    def __init__(self, max_postings: int = MAX_POSTINGS) -> None:
        super().__init__(max_postings, weigh=lambda terms: terms.size)

    def terms(self, lines: Sequence[str]) -> FileTerms:
        return self.get(content_key(lines), lambda: file_terms(lines))


def content_key(lines: Sequence[str]) -> bytes:
    """A hash of the lines (their count too: a trailing empty line counts)."""
    text = "\n".join(lines).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=16, person=b"%d" % len(lines)).digest()


FILE_TERMS = FileTermsCache()


def cached_file_terms(lines: Sequence[str]) -> FileTerms:
    """The file's term statistics, from the process-wide cache."""
    return FILE_TERMS.terms(lines)
