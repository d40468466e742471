"""Tool results: the text an agent reads (`content`) and the same facts as data
(`structuredContent`), in the JSON shapes of `ctxopt query --json`, `pack --json` and
`stats --json`, each chunk with its id for the `read_chunk` tool."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from mcp.types import CallToolResult, TextContent

from ctxopt.app.refresh import Freshness
from ctxopt.app.stats_report import StatsReport, report_json
from ctxopt.cli.render_pack import pack_json
from ctxopt.cli.render_query import chunk_json, result_json
from ctxopt.mcp_server.reading import MAX_CHARS, MAX_LINES, Lines
from ctxopt.pack.labels import chunk_place, shown_name
from ctxopt.types import Chunk, IndexStats, PackResult, QueryResult
from ctxopt.wording import plural


def _result(text: str, data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _as_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)


def query_answer(result: QueryResult, freshness: Freshness, *, explain: bool) -> CallToolResult:
    data = {
        "intent": result.intent.type.value,
        "candidates": result.candidates,
        "stale_files": freshness.left_stale,
        "results": [
            {"id": hit.chunk.id, **result_json(hit, explain=explain)} for hit in result.results
        ],
    }
    return _result(_as_json(data), data)


def pack_answer(result: PackResult, *, explain: bool = False) -> CallToolResult:
    """The prompt as the text; as data, `pack --json` without the prompt and the chunks'
    compressed text (both are in the prompt), each chunk with its id; with explain the
    candidates left out and why (`pack --json --explain`)."""
    data = pack_json(result, explain=explain)
    del data["prompt"]
    for entry, choice in zip(data["chunks"], result.chosen, strict=True):
        del entry["compressed"]
        entry["id"] = choice.hit.chunk.id
    data["stale_files"] = result.stale
    return _result(result.prompt, data)


def chunk_answer(chunk: Chunk) -> CallToolResult:
    data = {"id": chunk.id} | chunk_json(chunk) | {"text": chunk.text}
    head = f"{chunk_place(chunk)} {chunk.kind.value} {shown_name(chunk)}"
    return _result(f"{head}\n{chunk.text}", data)


def lines_answer(lines: Lines) -> CallToolResult:
    note = cut_note(lines)
    data = asdict(lines) | ({"note": note} if note else {})
    cut = f" ({note})" if note else ""
    head = f"{lines.path}:{lines.start_line}-{lines.end_line} of {lines.total_lines} lines{cut}"
    return _result(f"{head}\n{lines.text}", data)


def cut_note(lines: Lines) -> str | None:
    """How a cut read was cut and how to read on; None when the range came whole."""
    if not lines.truncated:
        return None
    read_on = f"; read on with start_line {lines.next_line}" if lines.next_line else ""
    if lines.cut_line_chars:
        return (
            f"cut: line {lines.end_line} holds {lines.cut_line_chars:,} characters, its first "
            f"{MAX_CHARS:,} are shown{read_on}"
        )
    shown = lines.end_line - lines.start_line + 1
    limit = f"{MAX_LINES:,} lines" if shown == MAX_LINES else f"{MAX_CHARS:,} characters"
    return f"cut at {limit} a call{read_on}"


def refresh_answer(stats: IndexStats) -> CallToolResult:
    data = asdict(stats)
    text = (
        f"index up to date: {plural(stats.files, 'file')}, {plural(stats.chunks, 'chunk')}; "
        f"+{stats.added} ~{stats.changed} -{stats.deleted} files, "
        f"{plural(stats.embedded, 'chunk')} embedded in {stats.seconds:.2f} s"
    )
    return _result(text, data)


def stats_answer(report: StatsReport) -> CallToolResult:
    data = report_json(report)
    return _result(_as_json(data), data)
