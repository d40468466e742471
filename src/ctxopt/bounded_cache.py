"""A thread-safe least-recently-used cache bounded by the summed weight of its values.

The caches a long-lived process (`ctxopt mcp`) keeps across calls, keyed by content so a
changed file never gives a stale value, share this one: each weighs its entries its own way
(one per entry, or what an entry holds) and drops the least recently used past its limit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


def _one(_value: object) -> int:
    return 1


class BoundedCache(Generic[V]):
    """Values by key, made on a miss; the oldest used go once their weights pass `limit`
    (the newest entry always stays)."""

    def __init__(self, limit: int, weigh: Callable[[V], int] = _one) -> None:
        self.limit = limit
        self._weigh = weigh
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for key, else make() (outside the lock), kept."""
        found = self.peek(key)
        if found is not None:
            return found
        made = make()
        with self._lock:
            self.misses += 1
            if key not in self._entries:
                self._entries[key] = made
                self._weight += self._weigh(made)
            while self._weight > self.limit and len(self._entries) > 1:
                _, dropped = self._entries.popitem(last=False)
                self._weight -= self._weigh(dropped)
        return made

    def peek(self, key: Hashable) -> V | None:
        """The value kept for key (None: none), without making one."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self.hits += 1
            return found

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._weight = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)
