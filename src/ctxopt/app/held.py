"""What a command holds until it ends: the lock that keeps a cloned repository URL at the
ref this command checked out while it indexes, queries and packs it.

The command line runs each command inside `command_scope()` (the background server runs
each served call the same way); `hold` enters a context manager there.  Outside a scope
(the library called directly) what is held is let go at once."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack

_scope: ExitStack | None = None


@contextlib.contextmanager
def command_scope() -> Iterator[None]:
    """Let go of everything `hold` took once the block ends, however it ends."""
    global _scope
    previous = _scope
    with ExitStack() as stack:
        _scope = stack
        try:
            yield
        finally:
            _scope = previous


def hold(resource: AbstractContextManager[object]) -> None:
    """Enter resource until the command ends (at once and out again outside a command)."""
    if _scope is None:
        with resource:
            return
    _scope.enter_context(resource)
