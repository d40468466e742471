"""Which ranking weights are in force for an index, and why: for `stats` and `--explain`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ctxopt.config.settings import Settings
from ctxopt.index.tuned import read_tuned
from ctxopt.retrieve.scoring import merge_weights


@dataclass(frozen=True)
class RankingView:
    source: str  # "tuned" or "defaults"
    line: str  # one sentence for people
    weights: dict[str, float] = field(default_factory=dict)  # in force
    overridden: tuple[str, ...] = ()  # names the user's settings set


def ranking_view(settings: Settings, embedder: str) -> RankingView:
    tuned = read_tuned(settings.db_path, embedder)
    in_force = tuned.weights if tuned is not None and tuned.kept else {}
    weights = merge_weights(settings.weights, embedder=embedder, tuned=in_force)
    overridden = tuple(sorted(dict(settings.weights)))
    mine = f"; your settings set {', '.join(overridden)}" if overridden else ""
    if tuned is None:
        line = "defaults (`ctxopt tune` fits them to this repository's commits)"
        return RankingView("defaults", line + mine, weights, overridden)
    if tuned.skipped:
        return RankingView("defaults", f"defaults ({tuned.skipped}){mine}", weights, overridden)
    figures = (
        f"{tuned.measure} {tuned.before:.3f} -> {tuned.after:.3f} on "
        f"{tuned.held_out} of {tuned.commits} commits up to {tuned.head[:12]}"
    )
    if tuned.kept:
        return RankingView("tuned", f"tuned ({figures}){mine}", weights, overridden)
    line = f"defaults (tuning was not better: {figures}){mine}"
    return RankingView("defaults", line, weights, overridden)
