"""Run ctxopt in this process (warm, fast) instead of through its CLI, for tuning runs."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchlib.select import Selection, Span, fill_budget, normalise_path
from benchlib.verbatim import shown_runs, split_span

QUERY_TOP_K = 400
SHOWN_IN_FULL = ("full", "excerpt")  # fidelities whose lines (shown_lines) appear verbatim


class LibraryRunner:
    """The same selections as CtxoptRunner, through ctxopt's library calls."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def check(self) -> None:
        import ctxopt.app.pack  # noqa: F401  (fails early when ctxopt is not installed)

    def tune(self, worktree: Path, exclude: Collection[str]) -> Any:
        """`ctxopt tune` on the work tree's history (not stored: the caller passes the
        weights), skipping the commits in exclude."""
        from ctxopt.app.tune import tune
        from ctxopt.config.settings import load_settings
        from ctxopt.index.build import build_index

        settings = load_settings(worktree)
        build_index(settings)
        return tune(settings, exclude=exclude, store=False)

    def select(
        self,
        task: str,
        worktree: Path,
        budgets: Sequence[int],
        weights: Mapping[str, float] | None = None,
    ) -> dict[int, Selection]:
        from ctxopt.config.settings import load_settings
        from ctxopt.index.build import build_index

        settings = load_settings(worktree, {"weights": dict(weights)} if weights else None)
        build_index(settings)
        if self.mode == "query":
            ranked = self._query(settings, task)
            return {b: Selection.of_spans(fill_budget(ranked, b)) for b in budgets}
        return {b: self._pack(settings, task, b) for b in budgets}

    def _query(self, settings: object, task: str) -> list[Span]:
        from ctxopt.app.query import refresh_then_query
        from ctxopt.retrieve.search import QueryOptions

        options = QueryOptions(k=QUERY_TOP_K)
        result, _ = refresh_then_query(settings, task, options)  # type: ignore[arg-type]
        return [
            Span(normalise_path(h.chunk.path), h.chunk.start_line, h.chunk.end_line,
                 h.chunk.tokens, h.score)
            for h in result.results
        ]  # fmt: skip

    def _pack(self, settings: object, task: str, budget: int) -> Selection:
        from ctxopt.app.pack import refresh_then_pack
        from ctxopt.errors import BudgetError
        from ctxopt.pack.api import PackOptions

        options = PackOptions(task=task, budget=budget, compression="none")
        try:
            result = refresh_then_pack(settings, options)  # type: ignore[arg-type]
        except BudgetError:
            return Selection((), 0)  # the task alone is over the budget: nothing shown
        root = Path(settings.root)  # type: ignore[attr-defined]
        spans: list[Span] = []
        for c in result.chosen:
            if c.fidelity.value not in SHOWN_IN_FULL:
                continue
            span = Span(
                normalise_path(c.hit.chunk.path), c.start_line, c.end_line, c.tokens, c.hit.score
            )
            if not c.hit.chunk.summary:
                spans.append(span)
                continue
            runs = shown_runs(root / c.hit.chunk.path, c.start_line, c.end_line, c.content)
            spans.extend(split_span(span, runs))
        return Selection(tuple(spans), result.tokens)
