"""Tuned weights kept beside the index (``tuned.json`` in the index folder or bucket).

They hold for the index they were fitted on: an index built with another embedder (whose
features differ) ignores them; `ctxopt tune` rewrites them and removing the index removes
them.  An unreadable file is ignored with the defaults in force, never an error at query time.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from ctxopt.config.paths import DbLocation
from ctxopt.index.location import locate

TUNED_FILE = "tuned.json"
TUNED_FORMAT = 1


@dataclass(frozen=True)
class TunedWeights:
    """The outcome of one `ctxopt tune` run."""

    weights: dict[str, float]  # the weights in force when kept (empty when not)
    kept: bool  # the tuned weights beat the defaults on held-out commits
    embedder: str  # the index's embedder when tuned
    head: str  # the commit the history was read from
    commits: int  # commits used (training + held out)
    held_out: int  # of which held out
    before: float  # the held-out check (measure) with the default weights
    after: float  # the held-out check with the fitted weights
    fitted: dict[str, float] = field(default_factory=dict)  # fitted, kept or not
    seconds: float = 0.0
    tuned_at: float = 0.0
    skipped: str = ""  # why nothing was fitted (too little history), empty when fitted
    measure: str = "held-out recall"  # what before and after measure (files of older runs)
    better: int | None = None  # held-out commits whose tuned pack showed more (None: older runs)
    worse: int | None = None  # ... and fewer

    def to_json(self) -> dict[str, object]:
        return {"format": TUNED_FORMAT, **asdict(self)}

    @staticmethod
    def from_json(data: dict[str, object]) -> TunedWeights:
        if int(str(data["format"])) != TUNED_FORMAT:
            raise ValueError("unknown format")
        names = TunedWeights.__dataclass_fields__
        values = {k: v for k, v in data.items() if k in names}
        for key in ("weights", "fitted"):
            raw = values.get(key, {})
            if not isinstance(raw, dict):
                raise ValueError(f"{key} is not a table")
            values[key] = {str(k): float(v) for k, v in raw.items()}
        for key in ("better", "worse"):
            count = values.get(key)
            if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
                raise ValueError(f"{key} is not a count")
        return TunedWeights(**values)  # type: ignore[arg-type]


def write_tuned(db: DbLocation, tuned: TunedWeights) -> None:
    locate(db).write_text(TUNED_FILE, json.dumps(tuned.to_json(), indent=2, sort_keys=True))


def forget_tuned(db: DbLocation) -> bool:
    """Remove the stored outcome (the defaults are in force again); False when there was none."""
    location = locate(db)
    if not location.exists(TUNED_FILE):
        return False
    location.delete(TUNED_FILE)
    return True


def read_tuned(db: DbLocation, embedder: str | None = None) -> TunedWeights | None:
    """The stored outcome, None when there is none, it is unreadable, or it was fitted on an
    index with another embedder than `embedder` (when given)."""
    try:
        raw = locate(db).read_text(TUNED_FILE)
        if raw is None:
            return None
        tuned = TunedWeights.from_json(json.loads(raw))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if embedder is not None and tuned.embedder != embedder:
        return None
    return tuned
