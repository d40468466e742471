"""Rendering query results: a rich table for people, JSON for machines."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from ctxopt.cli.console import Terminal
from ctxopt.retrieve.scoring import ScoredChunk
from ctxopt.retrieve.search import QueryResult


def result_json(hit: ScoredChunk, *, explain: bool) -> dict[str, Any]:
    chunk = hit.chunk
    item: dict[str, Any] = {
        "file": chunk.path,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "name": chunk.qualified_name or chunk.name,
        "kind": chunk.kind.value,
        "language": chunk.language,
        "tokens": chunk.tokens,
        "score": hit.score,
        "reasons": list(hit.reasons),
    }
    if explain:
        item["factors"] = hit.factors
    return item


def query_json(result: QueryResult, *, explain: bool) -> list[dict[str, Any]]:
    return [result_json(hit, explain=explain) for hit in result.results]


def query_table(terminal: Terminal, result: QueryResult, *, explain: bool) -> None:
    terminal.info(
        f"intent: {result.intent.type.value} ({result.intent.confidence:.2f}); "
        f"{result.candidates} candidates"
    )
    if not result.results:
        terminal.warn("nothing relevant found in the index")
        return
    table = Table(show_edge=False)
    for column in ("#", "file:lines", "kind", "name", "score", "why"):
        table.add_column(column, overflow="fold")
    for position, hit in enumerate(result.results, 1):
        chunk = hit.chunk
        why = "; ".join(hit.reasons[:3])
        if explain:
            shares = sorted(hit.factors.items(), key=lambda kv: -abs(kv[1]))
            why += "\n" + ", ".join(f"{k} {v:+.3f}" for k, v in shares if v)
        table.add_row(
            str(position),
            f"{chunk.path}:{chunk.start_line}-{chunk.end_line}",
            chunk.kind.value,
            chunk.qualified_name or chunk.name,
            f"{hit.score:.3f}",
            why,
        )
    terminal.out.print(table)
