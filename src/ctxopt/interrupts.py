"""Ctrl-C as this process saw it, to tell an interrupt from the error a library made of it.

A KeyboardInterrupt raised while Lance or Arrow runs Python code can come back as another
error: pyarrow reports it as ArrowInvalid ("External error: KeyboardInterrupt"), a ValueError
that reads like a damaged table.  The SIGINT handler installed here counts each interrupt, then
raises KeyboardInterrupt as Python's own handler does; code that turns library errors into
"damaged" compares the count from before its call (`since`) and re-raises the interrupt.

`run_process` keeps the exit status of a process that saw Ctrl-C what it asked for (see there).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType

INTERRUPTED_EXIT_CODE = 130  # what a shell reports for Ctrl-C, and what ctxopt exits with

_seen = 0
_exit_code: int | None = None  # what run_process's entry point exited with


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


def run_process(entry: Callable[[], object]) -> None:
    """Run a process's entry point; once Ctrl-C has been seen, the process's exit status is
    the code the entry point exits with.

    CPython (3.8 on) marks a Ctrl-C as unhandled when its KeyboardInterrupt passed through an
    `exec` or `eval` of source text (a dataclass being made, say), even when the program
    caught it further up, and a process started with `python -m` then ends by killing itself
    with SIGINT after finalisation: a run that printed "interrupted" and asked for 130 ended
    as killed by a signal instead.  The exit hook registered here, before any other so that
    it runs after them all, ends such a process itself with the code it asked for.  Only for
    a whole process: the background server runs commands in its own process and outlives
    them."""
    global _exit_code
    atexit.register(_end_interrupted_process)
    try:
        entry()
    except SystemExit as exc:
        _exit_code = _status(exc.code)
        raise
    _exit_code = 0


def _status(code: object) -> int:
    """The exit status Python gives `sys.exit(code)`."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _end_interrupted_process() -> None:
    if _seen == 0 or _exit_code is None:
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # closed, or None
            stream.flush()
    os._exit(_exit_code)
