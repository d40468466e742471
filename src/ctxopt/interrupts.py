"""Ctrl-C as this process saw it, to tell an interrupt from the error a library made of it.

A KeyboardInterrupt raised while Lance or Arrow runs Python code can come back as another
error: pyarrow reports it as ArrowInvalid ("External error: KeyboardInterrupt"), a ValueError
that reads like a damaged table.  The SIGINT handler installed here counts each interrupt, then
raises KeyboardInterrupt as Python's own handler does; code that turns library errors into
"damaged" compares the count from before its call (`since`) and re-raises the interrupt.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

_seen = 0


def note() -> None:
    """Count an interrupt (handlers that raise KeyboardInterrupt themselves call this)."""
    global _seen
    _seen += 1


def count() -> int:
    """Interrupts this process has seen so far."""
    return _seen


def since(before: int) -> bool:
    """Whether an interrupt came after `count()` returned before."""
    return _seen != before


def _handle(signum: int, frame: FrameType | None) -> None:
    note()
    raise KeyboardInterrupt


def install() -> None:
    """Count interrupts from now on, where SIGINT still has Python's default handler (only the
    main thread may set one; a handler someone else set is left alone)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _handle)
