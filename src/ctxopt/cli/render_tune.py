"""`ctxopt tune`'s result, as text and as JSON."""

from __future__ import annotations

from collections.abc import Sequence

from ctxopt.index.tuned import TunedWeights
from ctxopt.retrieve.scoring import merge_weights


def _weights_line(outcome: TunedWeights) -> str:
    defaults = merge_weights(embedder=outcome.embedder)
    changed = [
        f"{name} {defaults[name]:g} -> {value:g}"
        for name, value in outcome.fitted.items()
        if abs(value - defaults.get(name, 0.0)) >= 0.005
    ]
    return ", ".join(changed) or "none changed"


def verdict(outcome: TunedWeights) -> str:
    """One line: what the held-out commits said and what is now in force."""
    if outcome.skipped:
        return f"{outcome.skipped}: the default weights stay in force"
    figures = (
        f"{outcome.measure} {outcome.before:.3f} (defaults) -> "
        f"{outcome.after:.3f} (tuned) on the {outcome.held_out} newest of {outcome.commits} commits"
    )
    if outcome.better is not None and outcome.worse is not None:
        figures += f", more on {outcome.better} and fewer on {outcome.worse}"
    if outcome.kept:
        return f"{figures}: tuned weights kept"
    return f"{figures}: not better, the default weights stay in force"


def tune_text(outcome: TunedWeights, overridden: Sequence[str] = ()) -> str:
    lines = [
        verdict(outcome),
        f"{'weights' if outcome.kept else 'fitted, not kept'}: {_weights_line(outcome)}",
        f"took {outcome.seconds:.1f} s",
    ]
    if overridden and outcome.kept:
        lines.append(f"your settings still set: {', '.join(overridden)}")
    return "\n".join(lines)


def tune_json(outcome: TunedWeights, overridden: Sequence[str] = ()) -> dict[str, object]:
    data = outcome.to_json()
    data.pop("format", None)
    data["defaults"] = merge_weights(embedder=outcome.embedder)
    data["overridden_by_settings"] = list(overridden)
    return data
