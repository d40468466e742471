"""What analyze-doc prints: the plan, the markdown report of a run, and their JSON forms."""

from __future__ import annotations

from typing import Any

from ctxopt.analyze.cost import Spend
from ctxopt.analyze.layout import Layout
from ctxopt.analyze.memory import merge_graph
from ctxopt.analyze.plan import Limits
from ctxopt.analyze.records import WindowResult
from ctxopt.analyze.run import RunResult


def plan_dict(
    layout: Layout, limits: Limits, spend: Spend, *, memory_chars: int, model: str | None
) -> dict[str, Any]:
    return {
        "chars": layout.chars,
        "tokens": layout.tokens,
        "estimated_tokens": layout.estimate,
        "chars_per_token_estimate": layout.chars_per_token,
        "window_tokens": limits.window_tokens,
        "overlap": limits.overlap,
        "overlap_tokens": limits.overlap_tokens,
        "single_pass_tokens": limits.single_pass_tokens,
        "single_pass": len(layout.windows) == 1,
        "memory_chars": memory_chars,
        "model": model,
        "windows": [
            {
                "window": w.index,
                "chars": [w.start, w.end],
                "new_chars": [w.new_start, w.end],
                "overlap_chars": w.new_start - w.start,
                "tokens": w.tokens,
                "new_tokens": w.new_tokens,
                "overlap_tokens": w.overlap_tokens,
                "estimated_tokens": w.estimate,
            }
            for w in layout.windows
        ],
        "llm_calls": spend.calls,
        "tokens_to_send": spend.tokens_to_send,
        "cost_usd": None if spend.cost is None else round(spend.cost, 4),
    }


def plan_text(plan: dict[str, Any]) -> str:
    lines = [
        f"document: {plan['chars']:,} characters, {plan['tokens']:,} tokens (estimate "
        f"{plan['estimated_tokens']:,} at {plan['chars_per_token_estimate']} chars/token)",
        f"window: {plan['window_tokens']:,} tokens, overlap {plan['overlap']:.0%} "
        f"({plan['overlap_tokens']:,} tokens), memory {plan['memory_chars']:,} characters"
        + (f", model {plan['model']}" if plan["model"] else ""),
        "",
        f"{'window':>6}  {'characters':>23}  {'tokens':>9}  {'new':>9}  {'overlap':>8}  "
        f"{'estimate':>9}",
    ]
    for w in plan["windows"]:
        span = f"{w['chars'][0]:,}-{w['chars'][1]:,}"
        lines.append(
            f"{w['window']:>6}  {span:>23}  {w['tokens']:>9,}  {w['new_tokens']:>9,}  "
            f"{w['overlap_tokens']:>8,}  {w['estimated_tokens']:>9,}"
        )
    lines.append("")
    single = " (single pass)" if plan["single_pass"] else ""
    lines.append(
        f"LLM calls: {plan['llm_calls']}{single}, "
        f"tokens to send: about {plan['tokens_to_send']:,}"
        + (f", cost: ${plan['cost_usd']:.4f}" if plan["cost_usd"] is not None else "")
    )
    return "\n".join(lines) + "\n"


def run_dict(plan: dict[str, Any], result: RunResult, report: str) -> dict[str, Any]:
    graph = merge_graph([w.findings for w in result.windows if w.findings is not None])
    return {
        "plan": plan,
        "run_folder": str(result.folder),
        "resumed_windows": result.resumed,
        "windows": [w.to_dict() for w in result.windows],
        "failed_windows": [w.index for w in result.windows if w.failed],
        "memory": result.windows[-1].to_dict()["memory"] if result.windows else {},
        "graph": {
            "entities": [
                {"name": e.name, "type": e.type, "windows": graph.mentions.get(e.name, 0)}
                for e in graph.entities
            ],
            "relationships": [
                {"source": r.source, "relation": r.relation, "target": r.target}
                for r in graph.relationships
            ],
        },
        "final": result.final.to_dict(),
        "report": report,
    }


def _bullets(items: tuple[str, ...] | list[str]) -> list[str]:
    return [f"- {item}" for item in items] or ["- (none)"]


def _failed(windows: tuple[WindowResult, ...]) -> list[str]:
    lines = []
    for w in windows:
        if w.failed:
            step = w.analysis if not w.analysis.ok else w.compaction
            why = step.detail if step else ""
            lines.append(
                f"- window {w.index}: {why}; its memory fell back to the last "
                f"{len(w.memory.carried_text):,} characters of the window"
            )
    return lines


def markdown_report(result: RunResult, title: str) -> str:
    final = result.final
    windows = result.windows
    graph = merge_graph([w.findings for w in windows if w.findings is not None])
    insights = list(final.insights) or [
        i for w in windows if w.findings for i in w.findings.insights
    ]
    flags = list(final.compliance_flags)
    for w in windows:
        for flag in w.findings.compliance_flags if w.findings else ():
            if flag not in flags:
                flags.append(flag)
    summary = final.executive_summary or (
        "(the final synthesis failed; the insights below are the windows' own)"
    )
    lines = [
        f"# Analysis of {title}",
        "",
        "## Executive summary",
        "",
        summary,
        "",
        "## Insights",
        "",
    ]
    lines += _bullets(insights)
    lines += ["", "## Entities", ""]
    lines += [f"- {e.name}" + (f" ({e.type})" if e.type else "") for e in graph.entities] or [
        "- (none)"
    ]
    lines += ["", "## Relationships", ""]
    lines += [f"- {r.source} → {r.relation} → {r.target}" for r in graph.relationships] or [
        "- (none)"
    ]
    lines += ["", "## Flags", "", *_bullets(flags)]
    if final.cross_references:
        lines += ["", "## Cross-references", "", *_bullets(final.cross_references)]
    sent = sum(w.tokens_sent for w in windows) + final.tokens_sent
    failed = _failed(windows)
    if failed or final.failed:
        lines += ["", "## Failed steps", "", *failed]
        if final.failed and final.step is not None:
            lines.append(f"- final synthesis: {final.step.detail}")
    lines += [
        "",
        f"_{len(windows)} window(s), {sent:,} tokens sent._",
    ]
    return "\n".join(lines) + "\n"
