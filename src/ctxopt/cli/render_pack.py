"""The pack summary and explanation (stderr) and its JSON form (stdout)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ctxopt.cli.console import Terminal
from ctxopt.pack.api import PackResult
from ctxopt.pack.explain import drops_to_explain
from ctxopt.types import Fidelity
from ctxopt.wording import plural


def pack_json(result: PackResult) -> dict[str, Any]:
    rec = result.recommendation
    return {
        "prompt": result.prompt,
        "tokens": result.tokens,
        "budget": result.budget,
        "model_budget": result.model_budget,
        "encoding": result.encoding,
        "token_factor": result.token_factor,
        "files": list(result.files),
        "chunks": [
            {
                "file": c.hit.chunk.path,
                "start_line": c.hit.chunk.start_line,
                "end_line": c.hit.chunk.end_line,
                "shown_lines": [c.start_line, c.end_line],
                "name": c.hit.chunk.qualified_name or c.hit.chunk.name,
                "kind": c.hit.chunk.kind.value,
                "tokens": c.tokens,
                "original_tokens": c.hit.chunk.tokens,
                "score": c.hit.score,
                "fidelity": c.fidelity.value,
                "compressed": c.content,
                "why": c.why.text,
                "why_code": c.why.value,
                "stepped_down": c.stepped.value if c.stepped else None,
                "reasons": list(c.hit.reasons),
            }
            for c in result.chosen
        ],
        "savings": {
            "repo_tokens": result.savings.repo_tokens,
            "packed_tokens": result.savings.packed_tokens,
            "percentage": result.savings.percentage,
            "cost_saved": result.savings.cost_saved,
        },
        "model": {
            "recommended": rec.model.name,
            "tier": rec.tier,
            "reasoning": rec.reasoning,
            "estimated_cost": rec.estimated_cost,
        },
        "intent": result.query.intent.type.value,
        "confidence": result.confidence,
        "warnings": list(result.warnings),
    }


def pack_summary(terminal: Terminal, result: PackResult, output: Path | None) -> None:
    where = f" -> {output}" if output else ""
    shown = sum(1 for c in result.chosen if c.fidelity is not Fidelity.PATH)
    terminal.err.print(
        f"packed {result.tokens:,}/{result.budget:,} tokens ({result.encoding}"
        + (f", x{result.token_factor} for the model" if result.token_factor != 1.0 else "")
        + f"): {plural(len(result.files), 'file')}, {plural(shown, 'chunk')}{where}; "
        f"{result.savings.percentage:.1f}% smaller than the repository "
        f"({result.savings.repo_tokens:,} tokens); intent {result.query.intent.type.value}, "
        f"confidence {result.confidence:.2f}; recommended model: "
        f"{result.recommendation.model.name} ({result.recommendation.tier})",
        markup=False,
    )


def pack_explain(terminal: Terminal, result: PackResult) -> None:
    """Why each chunk is in the pack (and at its fidelity) or left out, rendered from the
    decisions; paths and names are printed with markup off."""
    for choice in result.chosen:
        chunk = choice.hit.chunk
        fidelity = choice.fidelity.value
        if choice.stepped is not None:
            fidelity += f" ({choice.stepped.text})"
        terminal.err.print(
            f"+ {chunk.path}:{chunk.start_line}-{chunk.end_line} {chunk.qualified_name} "
            f"[{fidelity}, {choice.tokens} tok, score {choice.hit.score:.3f}] "
            f"{choice.why.text}: {'; '.join(choice.hit.reasons[:3])}",
            markup=False,
        )
    report = drops_to_explain(result.chosen, result.dropped)
    for drop in (*report.above, *report.below):
        chunk = drop.hit.chunk
        terminal.err.print(
            f"- {chunk.path}:{chunk.start_line}-{chunk.end_line} {chunk.qualified_name} "
            f"(score {drop.hit.score:.3f}): {drop.text}",
            markup=False,
        )
    if report.unlisted:
        more = plural(report.unlisted, "lower-scored candidate")
        terminal.err.print(f"- ... and {more} left out", markup=False)
    terminal.err.print(f"recommendation: {result.recommendation.reasoning}", markup=False)
