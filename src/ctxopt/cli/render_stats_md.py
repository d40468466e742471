"""`ctxopt stats --markdown`: GitHub-flavoured tables for a step summary or a PR comment."""

from __future__ import annotations

from typing import TYPE_CHECKING

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

_SPECIAL = "\\`*_[]|#"
_TEXT_COLUMNS = ("task", "folder", "file", "language", "model", "level")


def cell(text: str) -> str:
    """Text from a user or a file, safe inside a table cell (no markup, no HTML, one line)."""
    out = "".join(f"\\{ch}" if ch in _SPECIAL else ch for ch in " ".join(text.split()))
    return out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _own_words(text: str) -> str:
    """ctxopt's own sentence (made of validated names), escaped as a cell but with its
    `command` spans kept as code: "\\`ctxopt tune\\`" showed its backticks on GitHub."""
    return cell(text).replace("\\`", "`")


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    align = ["---" if name in _TEXT_COLUMNS else "---:" for name in header]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return [*lines, ""]


def _index(report: StatsReport, top: int) -> list[str]:
    index = report.index
    lines = [
        "### Index",
        "",
        f"{index.files:,} files, {index.chunks:,} chunks, **{index.tokens:,} tokens**; "
        f"index {index_size(index)}; embedder {cell(index.embedder)}; "
        f"files changed since indexing: {index.changed_since}.",
        "",
        f"Ranking weights: {_own_words(index.ranking)}." if index.ranking else "",
        "",
    ]
    lines += _table(
        ["language", "files", "chunks", "tokens"],
        [
            [cell(name), f"{r['files']:,}", f"{r['chunks']:,}", f"{r['tokens']:,}"]
            for name, r in index.languages.items()
        ],
    )
    if top == 0:  # --top 0: no folder or file tables
        return lines
    lines += [f"**Folders** (depth {index.depth})", ""]
    lines += _table(
        ["folder", "files", "tokens"],
        [[cell(f.folder), f"{f.files:,}", f"{f.tokens:,}"] for f in index.folders[:top]],
    )
    lines += ["**Largest files**", ""]
    lines += _table(
        ["file", "language", "tokens"],
        [[cell(f.path), cell(f.language), f"{f.tokens:,}"] for f in index.largest_files],
    )
    return lines


def _savings(report: StatsReport) -> list[str]:
    if not report.tasks or report.totals is None:
        return []
    rows = [
        [
            cell(shown_task(t.task)),
            f"{t.repo_tokens:,}",
            f"{t.packed_tokens:,}",
            percent(t.saved_percent),
            cell(t.model),
            money(t.repo_cost),
            money(t.pack_cost),
            f"{t.confidence:.2f}",
        ]
        for t in report.tasks
    ]
    total = report.totals
    rows.append(
        [
            f"**total ({plural(total.tasks, 'task')})**",
            f"{total.repo_tokens:,}",
            f"{total.packed_tokens:,}",
            percent(total.saved_percent),
            "",
            money(total.repo_cost),
            money(total.pack_cost),
            "",
        ]
    )
    header = ["task", "repo tokens", "packed", "saved", "model", "repo cost", "pack cost"]
    return ["### Token savings per task", "", *_table([*header, "confidence"], rows)]


def _compression(report: StatsReport) -> list[str]:
    rows = [
        [level.level, f"{level.tokens:,}", f"{level.ratio:.3f}", percent(level.saved_percent)]
        for level in report.compression.levels
    ]
    return [
        "### Compression per level",
        "",
        *_table(["level", "tokens", "ratio", "saved"], rows),
        compression_note(report),
        "",
    ]


def _baseline(report: StatsReport) -> list[str]:
    diff = report.baseline
    if diff is None:
        return []
    lines = [
        "### Growth since the baseline",
        "",
        f"Baseline {cell(diff.path)} ({cell(diff.generated_at)}); "
        f"repository {growth_text(diff.repository)}.",
        "",
    ]
    if diff.folders:
        rows = [[cell(g.subject), growth_text(g)] for g in diff.folders]
        lines += _table(["folder", "tokens"], rows)
    if diff.tasks:
        lines += _table(
            ["task", "packed tokens"], [[cell(g.subject), growth_text(g)] for g in diff.tasks]
        )
    return lines


def _gates(report: StatsReport) -> list[str]:
    if not report.failures:
        return []
    return ["### Gates failed", "", *(f"- {cell(gate_message(f))}" for f in report.failures), ""]


def stats_markdown(report: StatsReport, *, top: int = 10) -> str:
    lines = [
        "## ctxopt token report",
        "",
        *_savings(report),
        *_gates(report),
        *_baseline(report),
        *_compression(report),
        *_index(report, top),
        f"_{cell(counting_note(report))}_",
    ]
    return "\n".join(lines).rstrip() + "\n"
