"""Rendering query results: a rich table for people, JSON for machines."""

from __future__ import annotations

from typing import Any

from ctxopt.cli.console import Terminal, plain
from ctxopt.pack.labels import chunk_place, name_fields, shown_name
from ctxopt.pack.select import excerpt_lines
from ctxopt.types import Chunk, QueryResult, ScoredChunk
from ctxopt.wording import plural


def chunk_json(chunk: Chunk) -> dict[str, Any]:
    """Where a chunk is and what it is, as query --json and the MCP server name it."""
    return {
        "file": chunk.path,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        **name_fields(chunk),
        "kind": chunk.kind.value,
        "language": chunk.language,
        "tokens": chunk.tokens,
    }


def result_json(hit: ScoredChunk, *, explain: bool) -> dict[str, Any]:
    item = chunk_json(hit.chunk) | {"score": hit.score, "reasons": list(hit.reasons)}
    excerpt = excerpt_lines(hit)
    if excerpt is not None:
        # a long chunk's lines where the task's words gather: what a pack shows of it as an excerpt
        item["excerpt"] = {"start_line": excerpt[0], "end_line": excerpt[1]}
    if explain:
        item["factors"] = hit.factors
    return item


def query_json(result: QueryResult, *, explain: bool) -> list[dict[str, Any]]:
    return [result_json(hit, explain=explain) for hit in result.results]


def query_summary(terminal: Terminal, result: QueryResult, filters: tuple[str, ...] = ()) -> None:
    """The line on stderr that says how the task was read, in either output form; and when
    the filters given (`--glob`, `--no-tests`...) left no hit, that they did."""
    terminal.info(
        f"intent: {result.intent.type.value}; confidence {result.confidence:.2f}; "
        f"{plural(result.candidates, 'candidate')}"
    )
    if filters and not result.results:
        terminal.warn(filtered_out(filters, result.candidates))


def filtered_out(filters: tuple[str, ...], candidates: int) -> str:
    """What to say when the filters given left none of the candidates."""
    named = filters[0] if len(filters) == 1 else f"the filters ({', '.join(filters)})"
    if candidates == 0:
        return f"no candidate matched {named}"
    return f"{named} matched none of the {plural(candidates, 'candidate')}"


def query_table(
    terminal: Terminal, result: QueryResult, *, explain: bool, filters: tuple[str, ...] = ()
) -> None:
    query_summary(terminal, result, filters)
    if explain and result.ranking:
        terminal.info(f"ranking weights: {result.ranking}")
    if not result.results:
        if not filters:
            terminal.warn("nothing relevant found in the index")
        return
    places = [chunk_place(h.chunk) for h in result.results]
    from rich.table import Table  # here: query --json never needs rich

    table = Table(show_edge=False)
    table.add_column("#", no_wrap=True, justify="right")
    table.add_column("file:lines", overflow="fold", min_width=min(48, max(map(len, places))))
    table.add_column("kind", no_wrap=True)
    table.add_column("name", overflow="fold", ratio=2, min_width=10)
    table.add_column("score", no_wrap=True)
    table.add_column("why", overflow="fold", ratio=3, min_width=16)
    for position, (hit, place) in enumerate(zip(result.results, places, strict=True), 1):
        chunk = hit.chunk
        why = "; ".join(hit.reasons[:3])
        excerpt = excerpt_lines(hit)
        if excerpt is not None:
            why += f"; the task's words at lines {excerpt[0]}-{excerpt[1]}"
        if explain:
            shares = sorted(hit.factors.items(), key=lambda kv: -abs(kv[1]))
            why += "\n" + ", ".join(f"{k} {v:+.3f}" for k, v in shares if v)
        table.add_row(
            str(position),
            plain(place),
            chunk.kind.value,
            plain(shown_name(chunk)),
            f"{hit.score:.3f}",
            plain(why),
        )
    terminal.out.print(table)
