"""Expected errors: the CLI turns each into one line on stderr and a non-zero exit."""

from __future__ import annotations

from ctxopt.interrupts import INTERRUPTED_EXIT_CODE


class CtxoptError(Exception):
    """An expected failure with a message a user can act on."""

    exit_code = 1


class UsageError(CtxoptError):
    """Bad input from the user: a missing path, a bad flag value."""

    exit_code = 2


class IndexMissingError(CtxoptError):
    """No index where one is needed."""


class IndexMismatchError(CtxoptError):
    """The index was written by another format or embedder."""


class BudgetError(CtxoptError):
    """A token budget that cannot hold the minimum prompt."""

    exit_code = 3


class IndexIncompleteError(CtxoptError):
    """The index has no commit marker: a run was interrupted before it finished."""


class IndexCorruptError(CtxoptError):
    """The index's files are damaged or missing; `ctxopt index --full` rebuilds it."""


class IndexBusyError(CtxoptError):
    """Another `ctxopt index` holds the index's lock."""


class IndexReadOnlyError(CtxoptError):
    """The index folder cannot be written (permissions, a read-only filesystem): it can still
    be read as it is."""


class InterruptedRun(CtxoptError):
    """Ctrl-C during a run; the message says what state the index was left in."""

    exit_code = INTERRUPTED_EXIT_CODE


class StorageError(CtxoptError):
    """The object store holding the index cannot be reached: no such bucket, a refused
    endpoint, missing credentials."""
