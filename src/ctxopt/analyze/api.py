"""analyze-doc as one library call per mode: plan, emit prompts, rolling LLM run, offline digest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ctxopt.analyze import prompts
from ctxopt.analyze.cost import Spend, planned_spend
from ctxopt.analyze.layout import Layout, lay_out
from ctxopt.analyze.plan import MIN_WINDOW_TOKENS, Limits
from ctxopt.analyze.read import Document, read_document
from ctxopt.errors import UsageError
from ctxopt.pack.models import DEFAULT_RESERVE, budget_for_model, find_model, load_models
from ctxopt.types import ModelInfo

if TYPE_CHECKING:
    from ctxopt.analyze.digest import Digest
    from ctxopt.embed.base import Embedder

DEFAULT_MODEL = "claude-sonnet-4-5"
MEMORY_PLACEHOLDER = "{{MEMORY}}"


@dataclass(frozen=True)
class PlanOptions:
    sources: tuple[str, ...]
    model: str | None = None
    window_tokens: int | None = None
    overlap: float = 0.2
    single_pass_tokens: int = 100_000
    memory_chars: int = 10_000


@dataclass(frozen=True)
class Prepared:
    document: Document
    title: str
    limits: Limits
    layout: Layout
    spend: Spend
    model: ModelInfo | None  # only when --model was given
    final_tokens: int  # the synthesis prompt's limit: the model's input, room for its answer


FINAL_RESERVE = 0.1  # of the model's window, for the synthesis's answer


def final_limit(model: ModelInfo | None) -> int:
    """The synthesis prompt's limit in cl100k tokens: --model's window (the default model's
    without one), less room for the answer."""
    return budget_for_model(model or find_model(DEFAULT_MODEL, load_models()), FINAL_RESERVE)


def _limits(options: PlanOptions) -> tuple[Limits, ModelInfo | None]:
    if options.window_tokens is not None and options.model is not None:
        raise UsageError("give --model or --window-tokens, not both")
    model = find_model(options.model, load_models()) if options.model else None
    if options.window_tokens is not None:
        width = options.window_tokens
    else:
        chosen = model or find_model(DEFAULT_MODEL, load_models())
        width = budget_for_model(chosen, DEFAULT_RESERVE)
    if width < MIN_WINDOW_TOKENS:
        raise UsageError(f"--window-tokens must be at least {MIN_WINDOW_TOKENS}, got {width}")
    if not 0 <= options.overlap <= 0.5:
        raise UsageError(f"--overlap is a share of a window in [0, 0.5], got {options.overlap}")
    if options.single_pass_tokens < 0:
        raise UsageError("--single-pass-tokens must be >= 0")
    if options.memory_chars < 200:
        raise UsageError(f"--memory-chars must be at least 200, got {options.memory_chars}")
    return Limits(width, options.overlap, options.single_pass_tokens), model


def prepare(options: PlanOptions, stdin: BinaryIO | None = None) -> Prepared:
    """Read the document and plan its windows (no LLM, no embedder)."""
    limits, model = _limits(options)
    document = read_document(options.sources, stdin)
    layout = lay_out(document.text, limits)
    final = final_limit(model)
    spend = planned_spend(layout, options.memory_chars, model, final)
    names = [part.name for part in document.parts]
    title = names[0] if len(names) == 1 else f"{names[0]} and {len(names) - 1} more"
    return Prepared(document, title, limits, layout, spend, model, final)


def window_prompts(prepared: Prepared) -> list[dict[str, Any]]:
    """One record per window: its prompt with the memory left as a placeholder."""
    text = prepared.document.text
    windows = prepared.layout.windows
    out = []
    for w in windows:
        prompt = prompts.window_prompt(
            index=w.index,
            count=len(windows),
            memory_json=MEMORY_PLACEHOLDER,
            overlap=text[w.start : w.new_start],
            new_text=text[w.new_start : w.end],
        )
        out.append(
            {
                "window": w.index,
                "windows": len(windows),
                "chars": [w.start, w.end],
                "new_chars": [w.new_start, w.end],
                "tokens": w.tokens,
                "memory_placeholder": MEMORY_PLACEHOLDER,
                "prompt": prompt,
            }
        )
    return out


def offline_digest(
    prepared: Prepared,
    *,
    budget: int,
    memory_chars: int,
    notify: Callable[[str], None] | None = None,
    progress: Callable[[int], None] | None = None,
    embedder: Embedder | None = None,
    cache_dir: Path | None = None,
) -> Digest:
    """The digest within budget; the static embedder's model lives in cache_dir (default: the
    user cache folder) unless an embedder is given."""
    from ctxopt.analyze.digest import digest
    from ctxopt.config.paths import user_cache
    from ctxopt.embed.factory import get_embedder

    chosen = embedder or get_embedder("static", cache_dir=cache_dir or user_cache(), notify=notify)
    return digest(
        prepared.document.text,
        prepared.layout,
        chosen,
        budget=budget,
        memory_chars=memory_chars,
        title=prepared.title,
        progress=progress,
    )
