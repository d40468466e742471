"""The line-window term statistics of files, kept per file content for the process's life.

Retrieval scores the line windows of the same few files call after call (the files a task's
first hits point at); splitting their lines into terms is most of that cost.  The statistics
do not depend on the task, so a long-lived process (`ctxopt mcp`) keeps them, keyed by a
hash of the file's text: a changed file has another key, so nothing stale is ever read.
Entries are dropped least recently used first once their postings pass MAX_POSTINGS.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

from ctxopt.retrieve.window_terms import FileTerms, file_terms

MAX_POSTINGS = 600_000  # about 90 MB at most (some 400,000 lines of code)


class FileTermsCache:
    """file_terms(lines), remembered by content (thread-safe; least recently used goes)."""

    def __init__(self, max_postings: int = MAX_POSTINGS) -> None:
        self.max_postings = max_postings
        self._entries: OrderedDict[bytes, FileTerms] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, lines: Sequence[str]) -> FileTerms:
        key = content_key(lines)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return found
        terms = file_terms(lines)
        with self._lock:
            self.misses += 1
            if key not in self._entries:
                self._entries[key] = terms
                self._size += terms.size
            while self._size > self.max_postings and len(self._entries) > 1:
                _, dropped = self._entries.popitem(last=False)
                self._size -= dropped.size
        return terms

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


def content_key(lines: Sequence[str]) -> bytes:
    """A hash of the lines (their count too: a trailing empty line counts)."""
    text = "\n".join(lines).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=16, person=b"%d" % len(lines)).digest()


FILE_TERMS = FileTermsCache()


def cached_file_terms(lines: Sequence[str]) -> FileTerms:
    """The file's term statistics, from the process-wide cache."""
    return FILE_TERMS.get(lines)
