"""Imported first by the parser workers' fork server, and so by every worker forked from it:
a worker whose parent stops before handing over its start-up data ends without a traceback.

Ctrl-C reaches the whole process group; when it lands while `ctxopt index` starts a worker
(after the fork server forked it, before the parent wrote what the worker is to run), the
parent stops and the worker reads an empty pipe.  The fork server reports what ends a child
that early through `sys.excepthook`, which printed Python's traceback (`EOFError: Ran out of
input`) on the caller's stderr, under ctxopt's own one-line `interrupted`.  The parent is gone
or stopping: that is no error of the worker's, so it is not shown; anything else still is.
"""

from __future__ import annotations

import sys
from types import TracebackType

PARENT_GONE = (EOFError, ConnectionError)  # an empty pipe, or one closed under the read


def quiet_when_the_parent_is_gone(
    kind: type[BaseException], value: BaseException, traceback: TracebackType | None
) -> None:
    if issubclass(kind, PARENT_GONE):
        return
    sys.__excepthook__(kind, value, traceback)


sys.excepthook = quiet_when_the_parent_is_gone
