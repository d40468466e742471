"""The pack summary and explanation (stderr) and its JSON form (stdout)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ctxopt.cli.console import Terminal
from ctxopt.pack.api import CANDIDATES
from ctxopt.pack.explain import drops_to_explain
from ctxopt.pack.labels import chunk_place, elided_lines, name_fields, shown_name
from ctxopt.pack.models import price_source
from ctxopt.types import Fidelity, PackResult, StopReason
from ctxopt.wording import percent, plural


def pack_json(result: PackResult, *, explain: bool = False) -> dict[str, Any]:
    """`pack --json`; with explain also `left_out`, the candidates `--explain` lists (every one
    ranked above the last chunk packed, then the best of the rest) with why each is out."""
    data = _pack_data(result)
    if explain:
        data.update(left_out_json(result))
    return data


def left_out_json(result: PackResult) -> dict[str, Any]:
    report = drops_to_explain(result.chosen, result.dropped)
    above = {id(d) for d in report.above}
    return {
        "ranking": result.query.ranking or None,  # which weights ranked, as --explain's first line
        "left_out": [
            {
                "file": d.hit.chunk.path,
                "start_line": d.hit.chunk.start_line,
                "end_line": d.hit.chunk.end_line,
                **name_fields(d.hit.chunk),
                "kind": d.hit.chunk.kind.value,
                "tokens": d.hit.chunk.tokens,
                "score": d.hit.score,
                "ranked_above_the_last_packed": id(d) in above,
                "why": d.text,
                "why_code": d.reason.value,
            }
            for d in (*report.above, *report.below)
        ],
        "left_out_unlisted": report.unlisted,
    }


def _pack_data(result: PackResult) -> dict[str, Any]:
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
                "elided_lines": elided_lines(c),
                **name_fields(c.hit.chunk),
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
            "priced_with": result.savings.model,
            "prices_date": price_source().date,
        },
        "model": _model_json(result),
        "stopped_by": result.stopped_by.value,
        "room_left": result.room_left,
        "intent": result.query.intent.type.value,
        "confidence": result.confidence,
        "warnings": list(result.warnings),
        "stale_files": result.stale,  # files changed since indexing and not re-indexed
        "secrets_redacted": result.secrets_redacted,
    }


def _model_json(result: PackResult) -> dict[str, Any]:
    """The model the user named (its window and price), else the recommended one."""
    if result.model is not None:
        return {
            "name": result.model.name,
            "named": True,
            "context_window": result.model.context_window,
            "reserve": result.reserve,
            "input_price": result.model.input_price,
            "estimated_cost": result.model_cost,
        }
    rec = result.recommendation
    return {
        "name": rec.model.name,
        "named": False,
        "recommended": rec.model.name,
        "tier": rec.tier,
        "reasoning": rec.reasoning,
        "estimated_cost": rec.estimated_cost,
    }


def model_words(result: PackResult) -> str:
    """The summary's words about the model: the one named, or the recommendation."""
    if result.model is not None:
        model = result.model
        kept = f", {result.reserve:.0%} kept for the answer" if result.reserve is not None else ""
        return (
            f"for {model.name} (window {model.context_window:,}{kept}): "
            f"${result.model_cost:.4f} of input"
        )
    rec = result.recommendation
    return f"recommended model: {rec.model.name} ({rec.tier})"


def stop_words(result: PackResult) -> str:
    """Why the pack stopped short of its budget, when a limit other than the budget did."""
    if result.stopped_by is StopReason.BUDGET:
        return ""
    room = f"; stopped with {result.room_left:,} tokens of the budget left: "
    if result.stopped_by is StopReason.PER_FILE_CAP:
        cap = result.max_chunks_per_file
        return room + (
            f"the others are held back by the cap of {cap} chunks a file "
            "(raise it with --max-chunks-per-file)"
        )
    return room + (
        f"the candidates ran out (all {plural(result.candidates, 'chunk')} the ranking passed on, "
        f"its best {CANDIDATES} and the rest of the files it is about, are in or set aside)"
    )


def pack_summary(
    terminal: Terminal, result: PackResult, output: Path | None, *, clipboard: str | None = None
) -> None:
    where = f" -> {output}" if output else ""
    where += f" -> the clipboard ({clipboard})" if clipboard else ""
    shown = sum(1 for c in result.chosen if c.fidelity is not Fidelity.PATH)
    terminal.err.print(
        f"packed {result.tokens:,}/{result.budget:,} tokens ({result.encoding}"
        + (f", x{result.token_factor} for the model" if result.token_factor != 1.0 else "")
        + f"): {plural(len(result.files), 'file')}, {plural(shown, 'chunk')}{where}; "
        f"{_against_repository(result)}; intent {result.query.intent.type.value}, "
        f"confidence {result.confidence:.2f}; {model_words(result)}{stop_words(result)}"
        + (
            f"; redacted {plural(result.secrets_redacted, 'secret')}"
            if result.secrets_redacted
            else ""
        ),
        markup=False,
    )


def _against_repository(result: PackResult) -> str:
    """The pack's size against the whole repository's: smaller by a share, or, for a
    repository smaller than the prompt's own headers, that it holds the whole of it."""
    repo_tokens = result.savings.repo_tokens
    if result.tokens >= repo_tokens:
        return f"the repository is {repo_tokens:,} tokens, less than the prompt"
    return (
        f"{percent(result.savings.percentage)} smaller than the repository ({repo_tokens:,} tokens)"
    )


def pack_explain(terminal: Terminal, result: PackResult) -> None:
    """Why each chunk is in the pack (and at its fidelity) or left out, rendered from the
    decisions; paths and names are printed with markup off."""
    if result.query.ranking:
        terminal.err.print(f"ranking weights: {result.query.ranking}", markup=False)
    for choice in result.chosen:
        chunk = choice.hit.chunk
        fidelity = choice.fidelity.value
        if choice.stepped is not None:
            fidelity += f" ({choice.stepped.text})"
        reasons = [r for r in choice.hit.reasons[:3] if r != choice.why.text]  # a diff's: the same
        terminal.err.print(
            f"+ {chunk_place(chunk)} {shown_name(chunk)} "
            f"[{fidelity}, {choice.tokens} tok, score {choice.hit.score:.3f}] "
            + ": ".join([choice.why.text, *(["; ".join(reasons)] if reasons else [])]),
            markup=False,
        )
    report = drops_to_explain(result.chosen, result.dropped)
    for drop in (*report.above, *report.below):
        chunk = drop.hit.chunk
        terminal.err.print(
            f"- {chunk_place(chunk)} {shown_name(chunk)} (score {drop.hit.score:.3f}): {drop.text}",
            markup=False,
        )
    if report.unlisted:
        more = plural(report.unlisted, "lower-scored candidate")
        terminal.err.print(f"- ... and {more} left out", markup=False)
    if result.model is None:
        terminal.err.print(f"recommendation: {result.recommendation.reasoning}", markup=False)
