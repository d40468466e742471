"""The one terminal wrapper: messages, progress and tables go to stderr; payloads to stdout.

Text that came from a user or a file (paths, tasks, names, messages quoting them) is never
read as rich markup or emoji codes: messages are printed with markup off, or escaped where
ctxopt adds its own markup, and table cells are plain `Text` (see `plain`).
"""

from __future__ import annotations

import json
import sys
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ctxopt.config.environment import no_color as no_color_set
from ctxopt.config.environment import piped_width

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.text import Text


def plain(value: object) -> Text:
    """A table cell shown as written: no markup, no emoji codes."""
    from rich.text import Text

    return Text(str(value))


class Terminal:
    """stderr for people, stdout for the product.

    The rich consoles are made on first use: a run that prints only its payload (`query
    --json`, a quiet `index`) never imports rich."""

    def __init__(self, *, quiet: bool = False) -> None:
        self.quiet = quiet

    def _options(self) -> dict[str, Any]:
        return {"no_color": no_color_set(), "highlight": False, "soft_wrap": True, "emoji": False}

    @cached_property
    def err(self) -> Console:
        from rich.console import Console

        return Console(stderr=True, **self._options())

    @cached_property
    def out(self) -> Console:
        from rich.console import Console

        width = None if sys.stdout.isatty() else piped_width()
        return Console(file=sys.stdout, width=width, **self._options())

    def info(self, text: str) -> None:
        if self.quiet:
            return
        if "err" not in self.__dict__ and not sys.stderr.isatty():
            sys.stderr.write(text + "\n")  # plain text to a pipe: rich is not imported for it
            return
        self.err.print(text, markup=False)

    def warn(self, text: str) -> None:
        from rich.markup import escape

        self.err.print(f"[yellow]warning:[/yellow] {escape(text)}", markup=True)

    def error(self, text: str) -> None:
        self.err.print(f"ctxopt: error: {text}", markup=False)

    def payload(self, text: str) -> None:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")
        sys.stdout.flush()

    def json(self, value: Any) -> None:
        self.payload(json.dumps(value, indent=2, ensure_ascii=False))


class BarProgress:
    """A rich progress bar on stderr (hidden when quiet or stderr is not a terminal)."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self._bar: Progress | None = None
        self._task: Any = None
        self._enabled = not terminal.quiet and sys.stderr.isatty() and terminal.err.is_terminal

    def start(self, total: int, description: str) -> None:
        if not self._enabled or total == 0:
            return
        # imported here: query and pack never show a bar (rich.progress loads rich.live too)
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._bar = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.terminal.err,
            transient=True,
        )
        self._bar.start()
        self._task = self._bar.add_task(description, total=total)

    def advance(self, amount: int = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, amount)

    def message(self, text: str) -> None:
        if self._bar is not None:
            self._bar.console.print(text, markup=False)
        elif not self.terminal.quiet:
            self.terminal.err.print(text, markup=False)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
