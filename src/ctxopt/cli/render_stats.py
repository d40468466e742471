"""Tables for index summaries and reports, printed on stderr."""

from __future__ import annotations

from datetime import datetime, timezone

from rich.table import Table

from ctxopt.cli.console import Terminal, plain
from ctxopt.index.stats import IndexReport
from ctxopt.types import IndexStats
from ctxopt.wording import plural


def _language_table(languages: dict[str, dict[str, int]]) -> Table:
    table = Table(title=None, show_edge=False)
    for column in ("language", "files", "chunks", "tokens"):
        table.add_column(column, justify="left" if column == "language" else "right")
    for language, row in languages.items():
        table.add_row(
            plain(language), f"{row['files']:,}", f"{row['chunks']:,}", f"{row['tokens']:,}"
        )
    return table


def index_summary(terminal: Terminal, stats: IndexStats) -> None:
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
            f"undecodable bytes replaced: {stats.decode_errors}",
            markup=False,
        )
    terminal.err.print(f"index: {stats.db_path} ({stats.embedder})", markup=False)


def report_table(terminal: Terminal, report: IndexReport) -> None:
    when = datetime.fromtimestamp(report.indexed_at, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")
    terminal.out.print(_language_table(report.languages))
    terminal.out.print(
        f"{plural(report.files, 'file')}, {plural(report.chunks, 'chunk')}, "
        f"{plural(report.tokens, 'token')}\n"
        f"index: {report.db_path} ({report.size_bytes / 1e6:.1f} MB on disk)\n"
        f"embedder: {report.embedder} ({report.dimensions} dimensions)\n"
        f"last indexed commit: {report.last_commit[:12] or '(none)'} at {when} UTC\n"
        f"files changed since: {report.changed_since}\n"
        f"secrets redacted in outputs: {secrets_line(report.secrets)}",
        markup=False,
    )


def secrets_line(counts: dict[str, int]) -> str:
    """ "3 (jwt 1, private-key 2)", or "none found"."""
    if not counts:
        return "none found"
    kinds = ", ".join(f"{kind} {count}" for kind, count in counts.items())
    return f"{sum(counts.values()):,} ({kinds})"
