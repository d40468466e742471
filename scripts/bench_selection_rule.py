"""How often a pack breaks issue 18's selection rule: a top-ranked chunk left out (turned away for
room, or by its file's cap) while a lower-scored entry of its own file, picked for its score, is
packed; and how many top-ranked chunks are packed as their declaration line alone beside such an
entry showing code (in the pack, but showing less).

Each repository is indexed at its checkout (in place: it gets a `.ctxopt/`), and the subjects of
its last N commits (merges left out) are packed as tasks at each budget, in process, as
`--runner library` does in bench_retrieval.py.  Prints JSON: packs, packs breaking the rule, the
top-ranked chunks shown as a declaration line only, and the first examples (file, chunk, rank,
score, weaker entries of its file packed, why left out).

    python scripts/bench_selection_rule.py /tmp/sel/ky /tmp/sel/requests /tmp/sel/chi --tasks 20
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path
from typing import Any

BUDGETS = (4000, 8000, 16000)


def _subjects(root: Path, count: int) -> list[str]:
    done = subprocess.run(
        ["git", "-C", str(root), "log", "--no-merges", f"-{count}", "--format=%s"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in done.stdout.splitlines() if line.strip()]


def _breaches(result: Any, top: int) -> list[tuple[str, str, int, float, int, str]]:
    """Top-ranked chunks left out (for room or by the cap) while a weaker entry of their file
    picked for its score is packed."""
    from ctxopt.pack.select import DISPLACEABLE, TURNED_AWAY_FOR_ROOM
    from ctxopt.types import DropReason

    left_out = (*TURNED_AWAY_FOR_ROOM, DropReason.PER_FILE_CAP)

    scores = sorted(
        [c.hit.score for c in result.chosen] + [d.hit.score for d in result.dropped], reverse=True
    )
    found = []
    for drop in result.dropped:
        rank = scores.index(drop.hit.score) + 1
        if rank > top or drop.reason not in left_out:
            continue
        weaker = [
            c
            for c in result.chosen
            if c.hit.chunk.path == drop.hit.chunk.path
            and c.why in DISPLACEABLE
            and c.hit.score < drop.hit.score
        ]
        if weaker:
            chunk = drop.hit.chunk
            found.append(
                (
                    chunk.path,
                    chunk.name,
                    rank,
                    round(drop.hit.score, 3),
                    len(weaker),
                    drop.reason.value,
                )
            )
    return found


def _declarations_only(result: Any, top: int) -> int:
    """Top-ranked chunks packed as their declaration line alone (no body shown) while a weaker
    entry of their file picked for its score shows code: in the pack, but showing less."""
    from ctxopt.pack.select import DISPLACEABLE
    from ctxopt.types import Fidelity

    scores = sorted(
        [c.hit.score for c in result.chosen] + [d.hit.score for d in result.dropped], reverse=True
    )
    shows_code = (Fidelity.FULL, Fidelity.EXCERPT)
    count = 0
    for entry in result.chosen:
        if entry.fidelity in shows_code or scores.index(entry.hit.score) + 1 > top:
            continue
        count += any(
            c.hit.chunk.path == entry.hit.chunk.path
            and c.why in DISPLACEABLE
            and c.fidelity in shows_code
            and c.hit.score < entry.hit.score
            for c in result.chosen
        )
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="+", type=Path, help="git checkouts to index and pack")
    parser.add_argument("--tasks", type=int, default=20, help="commit subjects per repository")
    parser.add_argument("--top", type=int, default=20, help="ranks that count as top-ranked")
    parser.add_argument("--examples", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from ctxopt.app.pack import refresh_then_pack
    from ctxopt.config.settings import load_settings
    from ctxopt.errors import BudgetError
    from ctxopt.index.build import build_index
    from ctxopt.pack.api import PackOptions

    packs = 0
    declarations = 0
    breaking: list[dict[str, Any]] = []
    for root in args.repos:
        settings = load_settings(root)
        build_index(settings)
        for task in _subjects(root, args.tasks):
            for budget in BUDGETS:
                options = PackOptions(task=task, budget=budget, compression="none")
                try:
                    result = refresh_then_pack(settings, options)
                except BudgetError:
                    continue
                packs += 1
                found = _breaches(result, args.top)
                declarations += _declarations_only(result, args.top)
                if found:
                    breaking.append(
                        {"repo": root.name, "budget": budget, "task": task, "chunks": found}
                    )
    print(
        json.dumps(
            {
                "packs": packs,
                "breaking": len(breaking),
                "top_chunks_shown_as_declaration_only": declarations,
                "examples": breaking[: args.examples],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
