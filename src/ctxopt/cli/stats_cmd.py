"""`ctxopt stats`: figures of an existing index."""

from __future__ import annotations

from dataclasses import asdict

from ctxopt.cli.console import Terminal
from ctxopt.cli.options import DbOption, JsonOption, PathOption
from ctxopt.cli.settings import settings_from_flags


def stats(
    *,
    path: PathOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show files, chunks, tokens per language, index size, embedder and freshness."""
    from ctxopt.cli.render_stats import report_table
    from ctxopt.index.stats import index_report

    terminal = Terminal()
    report = index_report(settings_from_flags(path, db=db))
    if as_json:
        terminal.json(asdict(report))
    else:
        report_table(terminal, report)
