"""Expected errors: the CLI turns each into one line on stderr and a non-zero exit.

A message that names an option the reader can set (`raise --budget`) is built by a function
of a `Naming`, so each front end names options its own way: the CLI's flags (`--budget`,
`--diff-ref`, what `str(error)` gives) or the MCP server's tool arguments (`budget`,
`diff_ref`, `error.worded(naming)`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ctxopt.interrupts import INTERRUPTED_EXIT_CODE


@dataclass(frozen=True)
class Naming:
    """How messages name the options their reader sets: flags on the command line, or the
    arguments of an MCP server's tools (`known`: the options that reader has; None: all)."""

    flags: bool = True
    known: frozenset[str] | None = None
    # options the reader sets somewhere else, with the words for where: a tasks file entry's
    # own `budget` is raised there, not with --budget
    elsewhere: tuple[tuple[str, str], ...] = ()

    def __call__(self, option: str) -> str:
        """option (`diff_ref`) as the reader writes it: `--diff-ref` or `` `diff_ref` ``."""
        for name, words in self.elsewhere:
            if name == option:
                return words
        return "--" + option.replace("_", "-") if self.flags else f"`{option}`"

    def has(self, option: str) -> bool:
        return self.known is None or option in self.known


FLAGS = Naming()
Worded = Callable[[Naming], str]  # a message that names options


def wait_words(names: Naming) -> str:
    """What to do about an index another run is writing."""
    return f"wait for it or pass {names('wait')}" if names.has("wait") else "call again later"


class CtxoptError(Exception):
    """An expected failure with a message a user can act on; given as a `Worded` function,
    the message names options as flags in `str(error)` and as `worded` is told."""

    exit_code = 1
    kind = "error"

    def __init__(self, message: str | Worded = "") -> None:
        self._worded = None if isinstance(message, str) else message
        super().__init__(message if isinstance(message, str) else message(FLAGS))

    def worded(self, naming: Naming) -> str:
        """The message with options named as naming names them."""
        return str(self) if self._worded is None else self._worded(naming)


class UsageError(CtxoptError):
    """Bad input from the user: a missing path, a bad flag value."""

    exit_code = 2
    kind = "usage"


class IndexMissingError(CtxoptError):
    """No index where one is needed."""

    kind = "no_index"


class IndexMismatchError(CtxoptError):
    """The index was written by another format or embedder."""

    kind = "index_mismatch"


class BudgetError(CtxoptError):
    """A token budget that cannot hold the minimum prompt."""

    exit_code = 3
    kind = "budget"


class LlmCommandError(CtxoptError):
    """analyze-doc's LLM command failed on every call so far: it is broken (a wrong key, a
    missing model), and going on would only pay for more failures."""

    exit_code = 5
    kind = "llm_command"


class IndexIncompleteError(CtxoptError):
    """The index has no commit marker: a run was interrupted before it finished."""

    kind = "index_incomplete"


class IndexCorruptError(CtxoptError):
    """The index's files are damaged or missing; `ctxopt index --full` rebuilds it."""

    kind = "index_corrupt"


class IndexBusyError(CtxoptError):
    """Another `ctxopt index` holds the index's lock."""

    kind = "index_busy"


class IndexReadOnlyError(CtxoptError):
    """The index folder cannot be written (permissions, a read-only filesystem): it can still
    be read as it is."""

    kind = "index_read_only"


class InterruptedRun(CtxoptError):
    """Ctrl-C during a run; the message says what state the index was left in."""

    exit_code = INTERRUPTED_EXIT_CODE
    kind = "interrupted"


class StorageError(CtxoptError):
    """The object store holding the index cannot be reached: no such bucket, a refused
    endpoint, missing credentials."""

    kind = "storage"
