"""analyze-doc's two long modes on the terminal: the rolling LLM run and the offline digest."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ctxopt.analyze.api import Prepared
from ctxopt.cli.console import Terminal
from ctxopt.cli.output_file import write_output
from ctxopt.interrupts import INTERRUPTED_EXIT_CODE
from ctxopt.wording import plural


class RunBar:
    """Calls done, tokens sent and elapsed time on stderr (hidden when quiet or not a terminal)."""

    def __init__(self, terminal: Terminal, total: int, description: str) -> None:
        self.terminal = terminal
        self._bar: Progress | None = None
        if not terminal.quiet and terminal.err.is_terminal and total > 0:
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[sent]}"),
                TimeElapsedColumn(),
                console=terminal.err,
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(description, total=total, sent="")

    def update(self, done: int, sent: str) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=done, sent=sent)

    def warn(self, text: str) -> None:
        if self._bar is not None:
            self._bar.console.print(f"[yellow]warning:[/yellow] {escape(text)}")
        else:
            self.terminal.warn(escape(text))

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _write(terminal: Terminal, text: str, output: Path | None) -> None:
    if output is not None:
        write_output(output, text)
    else:
        terminal.payload(text)


def run_llm(
    terminal: Terminal,
    prepared: Prepared,
    plan: dict[str, Any],
    *,
    llm: str,
    final_llm: str,
    timeout: float,
    memory_chars: int,
    run_dir: Path | None,
    cache_dir: Path,
    resume: bool,
    restart: bool,
    max_calls: int | None,
    as_json: bool,
    output: Path | None,
) -> bool:
    """Run every window through the command; True when a window or the synthesis fell back."""
    from ctxopt.analyze.llm import command_argv
    from ctxopt.analyze.report import markdown_report, run_dict
    from ctxopt.analyze.run import Event, EventKind, RunOptions, rolling_run, run_folder

    options = RunOptions(
        llm=command_argv(llm),
        final_llm=command_argv(final_llm),
        timeout=timeout,
        memory_chars=memory_chars,
        run_dir=run_dir,
        resume=resume,
        restart=restart,
        cache_dir=cache_dir,
        final_tokens=prepared.final_tokens,
        max_calls=max_calls,
    )
    text, layout = prepared.document.text, prepared.layout
    bar = RunBar(terminal, prepared.spend.calls, f"{len(layout.windows)} window(s)")
    started = time.monotonic()
    base = [0]

    def on_event(event: Event) -> None:
        if event.kind is EventKind.RESUMED:
            base[0] = 2 * event.window
            if event.window == len(layout.windows):
                terminal.info(
                    f"the {plural(event.window, 'window')} of a finished run read back from the "
                    "run folder (--restart runs them again)"
                )
            else:
                terminal.info(
                    f"resuming after window {event.window} (read back from the run folder)"
                )
        elif event.kind is EventKind.FALLBACK:
            bar.warn(
                f"window {event.window} failed after a retry ({event.detail}); its memory falls "
                f"back to the last {memory_chars:,} characters"
            )
        elif event.kind is EventKind.FINAL_FAILED:
            bar.warn(f"the final synthesis failed after a retry ({event.detail})")
        elif event.kind is EventKind.FINAL_TRIMMED:
            bar.warn(
                f"the final synthesis leaves out the memories of the first {event.detail} "
                f"window(s) to fit {prepared.final_tokens:,} tokens (the later "
                "memories carry them)"
            )
        bar.update(base[0] + event.calls, f"{event.tokens_sent:,} tokens sent")

    try:
        result = rolling_run(text, layout, options, on_event)
    except KeyboardInterrupt:
        bar.stop()
        folder = run_folder(text, layout, options)
        terminal.error(
            f"interrupted; finished windows are kept in {folder}: run again with --resume"
        )
        raise SystemExit(INTERRUPTED_EXIT_CODE) from None
    finally:
        bar.stop()
    report = markdown_report(result, prepared.title)
    if as_json:
        _write(
            terminal,
            json.dumps(run_dict(plan, result, report), indent=2, ensure_ascii=False) + "\n",
            output,
        )
    else:
        _write(terminal, report, output)
    failed = [w.index for w in result.windows if w.failed]
    if not terminal.quiet:
        took = time.monotonic() - started
        terminal.info(
            f"{len(result.windows)} window(s) in {took:.1f} s"
            + (f", {result.resumed} read back" if result.resumed else "")
            + f"; run folder {escape(str(result.folder))}"
        )
    if failed:
        names = ", ".join(str(i) for i in failed)
        terminal.warn(f"window(s) {names} fell back to truncated memory; see 'Failed steps'")
    return bool(failed) or result.final.failed


def run_digest(
    terminal: Terminal,
    prepared: Prepared,
    plan: dict[str, Any],
    *,
    budget: int,
    memory_chars: int,
    cache_dir: Path,
    as_json: bool,
    output: Path | None,
) -> None:
    """The offline digest within --budget tokens, on stdout or -o."""
    from ctxopt.analyze.api import offline_digest

    started = time.monotonic()
    bar = RunBar(terminal, len(prepared.layout.windows), "digest")
    try:
        result = offline_digest(
            prepared,
            budget=budget,
            memory_chars=memory_chars,
            notify=terminal.info,
            progress=lambda index: bar.update(index, ""),
            cache_dir=cache_dir,
        )
    finally:
        bar.stop()
    if as_json:
        value = {
            "plan": plan,
            "windows": [
                {
                    "window": w.index,
                    "picks": [result.sentences[i].text for i in sorted(w.picks)],
                    "memory": [result.sentences[i].text for i in sorted(w.memory)],
                }
                for w in result.windows
            ],
            "memory": [result.sentences[i].text for i in sorted(result.windows[-1].memory)],
            "digest": result.text,
            "digest_tokens": result.tokens,
            "cut": None if result.cut is None else result.cut.text,
            "budget": budget,
        }
        _write(terminal, json.dumps(value, indent=2, ensure_ascii=False) + "\n", output)
    else:
        _write(terminal, result.text, output)
    if not terminal.quiet:
        terminal.info(
            f"digest: {plural(len(result.chosen), 'sentence')}"
            + (" and the start of one more" if result.cut else "")
            + f", {result.tokens:,} of {budget:,} tokens, "
            f"{plural(len(result.windows), 'window')}, {time.monotonic() - started:.1f} s"
        )
