"""The one terminal wrapper: messages, progress and tables go to stderr; payloads to stdout."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ctxopt.config.environment import no_color as no_color_set


class Terminal:
    """stderr for people, stdout for the product."""

    def __init__(self, *, quiet: bool = False) -> None:
        self.quiet = quiet
        no_color = no_color_set()
        self.err = Console(stderr=True, no_color=no_color, highlight=False, soft_wrap=True)
        self.out = Console(file=sys.stdout, no_color=no_color, highlight=False, soft_wrap=True)

    def info(self, text: str) -> None:
        if not self.quiet:
            self.err.print(text)

    def warn(self, text: str) -> None:
        self.err.print(f"[yellow]warning:[/yellow] {text}", markup=True)

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
        self._enabled = not terminal.quiet and terminal.err.is_terminal

    def start(self, total: int, description: str) -> None:
        if not self._enabled or total == 0:
            return
        self._bar = Progress(
            TextColumn("{task.description}"),
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
            self._bar.console.print(text)
        elif not self.terminal.quiet:
            self.terminal.err.print(text, markup=False)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
