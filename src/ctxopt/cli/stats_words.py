"""Words shared by the stats renderers: gate failures, growth, money, the counting note."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxopt.config.paths import is_object_store
from ctxopt.pack.gates import Gate
from ctxopt.wording import byte_size, plural

if TYPE_CHECKING:
    from ctxopt.app.stats_report import StatsReport
    from ctxopt.index.stats import IndexReport
    from ctxopt.pack.baseline import Growth
    from ctxopt.pack.gates import GateFailure


def index_size(index: IndexReport) -> str:
    """The index's size on disk ("28.4 KB on disk"); an index on object storage is not on
    this disk."""
    if is_object_store(index.db_path):
        return "on object storage"
    return f"{byte_size(index.size_bytes)} on disk"


def money(value: float) -> str:
    return f"${value:,.4f}" if abs(value) < 1 else f"${value:,.2f}"


TASK_CELL = 200  # characters of a task shown in a table cell (a pasted log can be 45 KB)


def shown_task(task: str) -> str:
    """A task's text for a table: on one line, cut with an ellipsis past TASK_CELL."""
    text = " ".join(task.split())
    return text if len(text) <= TASK_CELL else text[: TASK_CELL - 1] + "…"


def growth_text(growth: Growth) -> str:
    sign = "+" if growth.change >= 0 else ""
    if growth.percent is None:
        percent = "new"
    elif growth.before and not growth.after:
        percent = "gone"
    else:
        percent = f"{sign}{growth.percent:.1f}%"
    return f"{growth.before:,} -> {growth.after:,} ({sign}{growth.change:,}, {percent})"


def gate_message(failure: GateFailure) -> str:
    """One line: which gate failed, on what, and by how much."""
    subject = f"task {failure.subject!r}" if failure.is_task else failure.subject
    if failure.gate == Gate.FAIL_UNDER:
        return (
            f"--fail-under {failure.limit:g}: {subject} saved {failure.actual:.2f}%, "
            f"{failure.excess:g} points under the limit"
        )
    if failure.gate == Gate.MAX_REPO_TOKENS:
        return (
            f"--max-repo-tokens {failure.limit:,.0f}: the repository holds "
            f"{failure.actual:,.0f} tokens, {failure.excess:,.0f} over the limit"
        )
    return (
        f"--max-growth {failure.limit:g}: {subject} grew {failure.actual:.2f}% since the "
        f"baseline, {failure.excess:g} points over the limit"
    )


def counting_note(report: StatsReport) -> str:
    return (
        f"Tokens counted exactly with {report.encoding} (tiktoken). Prices: USD per million "
        f"input tokens from {report.prices.source}, checked {report.prices.date}; costs at "
        f"each task's model (default {report.model}), in that model's own tokens (cl100k "
        "tokens times its token_factor in the model table, 1.2 for Claude's)."
    )


def compression_note(report: StatsReport) -> str:
    c = report.compression
    outlines = (
        f"; {plural(c.outline_chunks, 'class outline')} of {c.outline_tokens:,} tokens left out"
        if c.outline_chunks
        else ""
    )
    scope = (
        f"a sample of {c.chunks:,} of {c.index_chunks:,} code chunks ({c.tokens:,} of "
        f"{c.index_tokens:,} tokens{outlines})"
        if c.sampled
        else f"all {c.chunks:,} code chunks ({c.tokens:,} tokens{outlines})"
    )
    return f"Compression measured on the stored chunk text of {scope}; nothing re-parsed."
