"""Tables for index summaries and reports (rich, in a terminal)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING

from rich.markup import escape
from rich.table import Table

from ctxopt.cli.console import Terminal
from ctxopt.cli.stats_words import (
    compression_note,
    counting_note,
    gate_message,
    growth_text,
    index_size,
    money,
    shown_task,
)
from ctxopt.wording import percent, plural

if TYPE_CHECKING:
    from ctxopt.app.stats_report import StatsReport
    from ctxopt.index.stats import IndexReport
    from ctxopt.types import IndexStats


def _table(title: str | None, columns: list[str]) -> Table:
    table = Table(title=title, show_edge=False, title_justify="left")
    for number, column in enumerate(columns):
        if number == 0 or column in ("language", "model"):
            table.add_column(column, justify="left", no_wrap=number > 0)
        else:
            table.add_column(column, justify="right", no_wrap=True)
    return table


def _language_table(languages: dict[str, dict[str, int]]) -> Table:
    table = _table(None, ["language", "files", "chunks", "tokens"])
    for language, row in languages.items():
        table.add_row(
            escape(language), f"{row['files']:,}", f"{row['chunks']:,}", f"{row['tokens']:,}"
        )
    return table


def index_summary(terminal: Terminal, stats: IndexStats, globs: str = "") -> None:
    """An index run's figures on stderr; globs: the --include and --exclude in force, as
    words (an empty index says that no file is within them)."""
    if stats.files:
        terminal.err.print(_language_table(stats.languages))
    skipped = ", ".join(f"{reason} {count}" for reason, count in sorted(stats.skipped.items()))
    terminal.err.print(
        f"{plural(stats.files, 'file')}, {plural(stats.chunks, 'chunk')}, "
        f"{plural(stats.tokens, 'token')} (+{stats.added} ~{stats.changed} -{stats.deleted}, "
        f"{plural(stats.embedded, 'chunk')} embedded) "
        f"in {stats.seconds:.2f} s",
        markup=False,
    )
    if skipped:
        terminal.err.print(f"skipped: {skipped}", markup=False)
    if stats.fallback_files or stats.decode_errors:
        terminal.err.print(
            f"line-chunked after parser trouble: {plural(stats.fallback_files, 'file')}; "
            f"bytes not valid UTF-8 (read as cp1252) or undecodable: {stats.decode_errors}",
            markup=False,
        )
    terminal.err.print(f"index: {stats.db_path} ({stats.embedder})", markup=False)
    if not stats.files:
        if globs:
            why = f"no file is within {globs}"
        elif skipped:
            why = "every file was skipped (see above)"
        else:
            why = "the repository has no files"
        terminal.warn(f"the index is empty: {why}; query and pack will have nothing to show")


def report_table(terminal: Terminal, report: IndexReport, *, top: int = 10) -> None:
    """The index view: languages, folders, largest files, size, embedder and freshness."""
    when = datetime.fromtimestamp(report.indexed_at, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")
    if report.files:
        _composition_tables(terminal, report, top)
    terminal.out.print(
        f"{plural(report.files, 'file')}, {plural(report.chunks, 'chunk')}, "
        f"{plural(report.tokens, 'token')}\n"
        f"index: {report.db_path} ({index_size(report)})\n"
        f"embedder: {report.embedder} ({report.dimensions} dimensions)\n"
        f"ranking weights: {report.ranking}\n"
        f"ranking evidence: {plural(report.history_commits, 'past commit message')}\n"
        f"last indexed commit: {report.last_commit[:12] or '(none)'} at {when} UTC\n"
        f"files changed since: {report.changed_since}\n"
        f"secrets redacted in outputs: {secrets_line(report.secrets)}",
        markup=False,
    )


def _composition_tables(terminal: Terminal, report: IndexReport, top: int) -> None:
    """Languages, the largest folders and the largest files of a non-empty index."""
    terminal.out.print(_language_table(report.languages))
    if top == 0:  # --top 0: no folder or file tables
        return
    folders = _table(f"folders (depth {report.depth})", ["folder", "files", "tokens"])
    for row in report.folders[:top]:
        folders.add_row(escape(row.folder), f"{row.files:,}", f"{row.tokens:,}")
    terminal.out.print(folders)
    largest = _table("largest files", ["file", "language", "tokens"])
    for item in report.largest_files:
        largest.add_row(escape(item.path), escape(item.language), f"{item.tokens:,}")
    terminal.out.print(largest)


def _savings_table(report: StatsReport) -> Table | None:
    if not report.tasks or report.totals is None:
        return None
    table = _table(
        "token savings per task",
        ["task", "repo tokens", "packed", "saved", "model", "repo cost", "pack cost", "confidence"],
    )
    for t in report.tasks:
        table.add_row(
            escape(shown_task(t.task)),
            f"{t.repo_tokens:,}",
            f"{t.packed_tokens:,}",
            percent(t.saved_percent),
            escape(t.model),
            money(t.repo_cost),
            money(t.pack_cost),
            f"{t.confidence:.2f}",
        )
    total = report.totals
    table.add_section()
    table.add_row(
        f"total ({plural(total.tasks, 'task')})",
        f"{total.repo_tokens:,}",
        f"{total.packed_tokens:,}",
        percent(total.saved_percent),
        "",
        money(total.repo_cost),
        money(total.pack_cost),
        "",
    )
    return table


def _baseline_tables(terminal: Terminal, report: StatsReport) -> None:
    diff = report.baseline
    if diff is None:
        return
    terminal.out.print(
        f"growth since {diff.path} ({diff.generated_at}): repository "
        f"{growth_text(diff.repository)}",
        markup=False,
    )
    for title, rows in (("folders", diff.folders), ("tasks (packed tokens)", diff.tasks)):
        if rows:
            table = _table(f"growth: {title}", [title.split(" ")[0], "tokens"])
            for growth in rows:
                table.add_row(escape(growth.subject), growth_text(growth))
            terminal.out.print(table)


def stats_tables(terminal: Terminal, report: StatsReport, *, top: int = 10) -> None:
    """Every part of the report as rich tables on stdout."""
    report_table(terminal, report.index, top=top)
    compression = _table("compression per level", ["level", "tokens", "ratio", "saved"])
    for level in report.compression.levels:
        compression.add_row(
            level.level, f"{level.tokens:,}", f"{level.ratio:.3f}", percent(level.saved_percent)
        )
    terminal.out.print(compression)
    terminal.out.print(compression_note(report), markup=False)
    savings = _savings_table(report)
    if savings is not None:
        terminal.out.print(savings)
    _baseline_tables(terminal, report)
    terminal.out.print(counting_note(report), markup=False)


def gate_failures(terminal: Terminal, report: StatsReport) -> None:
    """One line on stderr per failed gate."""
    for failure in report.failures:
        terminal.err.print(f"ctxopt: gate failed: {gate_message(failure)}", markup=False)


def secrets_line(counts: dict[str, int]) -> str:
    """ "3 (jwt 1, private-key 2)", or "none found"."""
    if not counts:
        return "none found"
    kinds = ", ".join(f"{kind} {count}" for kind, count in counts.items())
    return f"{sum(counts.values()):,} ({kinds})"
