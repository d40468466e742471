"""Which left-out candidates `--explain` lists: every one ranked above the last chunk packed,
then the best of the rest up to a limit (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ctxopt.types import Choice, Dropped, Fidelity

EXPLAIN_BELOW = 20  # left-out candidates listed beyond those ranked above the last one packed


@dataclass(frozen=True)
class DropReport:
    above: tuple[Dropped, ...]  # every drop scored at least as high as the last chunk shown
    below: tuple[Dropped, ...]  # the best-scored of the other drops, at most EXPLAIN_BELOW
    unlisted: int  # the drops in neither
    floor: float | None  # the score of the last chunk shown; None when nothing was shown


def _order(drop: Dropped) -> tuple[float, str, int]:
    return (-drop.hit.score, drop.hit.chunk.path, drop.hit.chunk.start_line)


def drops_to_explain(
    chosen: Sequence[Choice], dropped: Sequence[Dropped], below: int = EXPLAIN_BELOW
) -> DropReport:
    """Drops best first: all that outscore the lowest-scored entry showing code, and up to
    `below` more."""
    shown = [c.hit.score for c in chosen if c.fidelity is not Fidelity.PATH]
    floor = min(shown) if shown else None
    ordered = sorted(dropped, key=_order)
    above = [d for d in ordered if floor is not None and d.hit.score >= floor]
    rest = ordered[len(above) :]
    return DropReport(tuple(above), tuple(rest[:below]), max(0, len(rest) - below), floor)
