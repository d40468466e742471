"""Benchmark `ctxopt analyze-doc` on a deterministic 2M-character document.

Usage: python scripts/bench_analyze.py [--chars 2000000] [--runs 3] [--json]

Writes the document (numbered sections of varied English-like sentences, made from
a fixed seed) to a temporary folder, then runs in fresh processes, as a user would:
`ctxopt analyze-doc DOC --plan` (target < 2 s) and the offline digest
`ctxopt analyze-doc DOC --budget 8000` (target < 30 s, peak RSS < 1 GB).  Each
figure is process start to output; peak RSS is the child's own (wait4).  The static
embedding model must be distilled already (any earlier `ctxopt index` did it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUBJECTS = (
    "The supplier",
    "The customer",
    "Each party",
    "The auditor",
    "The processor",
    "The licensee",
    "The board",
    "The carrier",
    "The operator",
    "The insurer",
)
VERBS = (
    "shall deliver",
    "must report",
    "may terminate",
    "shall indemnify",
    "will review",
    "shall notify",
    "must retain",
    "may audit",
    "shall pay",
    "will escalate",
)
OBJECTS = (
    "the monthly invoices",
    "all personal data",
    "the safety records",
    "each incident",
    "the service credits",
    "the source code escrow",
    "the annual budget",
    "the shipping manifests",
    "the insurance certificates",
    "the access logs",
)
TAILS = (
    "within thirty days",
    "before the end of each quarter",
    "unless agreed in writing",
    "as set out in Schedule 4",
    "subject to clause 12",
    "without undue delay",
    "at its own cost",
    "in accordance with applicable law",
    "on written request",
    "for a period of seven years",
)


def make_document(chars: int, seed: int = 20261123) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    section = 0
    while size < chars:
        section += 1
        parts.append(f"## Section {section}: {rng.choice(OBJECTS).title()}")
        size += len(parts[-1]) + 2
        for _ in range(rng.randint(3, 8)):
            sentences = [
                f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
                f"{rng.choice(TAILS)} (ref {section}.{rng.randint(1, 99)})."
                for _ in range(rng.randint(2, 6))
            ]
            parts.append(" ".join(sentences))
            size += len(parts[-1]) + 2
    return "\n\n".join(parts)[:chars]


def run_child(args: list[str]) -> tuple[float, int, str, float]:
    """Seconds, peak RSS (MB, the child's own from wait4), stdout and CPU seconds of one
    fresh process (CPU time tells the work apart from waiting on a busy machine)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "ctxopt.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        sys.exit(f"ctxopt {' '.join(args)} failed with status {status}")
    return seconds, usage.ru_maxrss // 1024, out.decode(), usage.ru_utime + usage.ru_stime


def series(args: list[str], runs: int) -> dict[str, object]:
    results = [run_child(args) for _ in range(runs)]
    times = [r[0] for r in results]
    return {
        "command": "ctxopt " + " ".join(args),
        "median_s": round(statistics.median(times), 2),
        "min_s": round(min(times), 2),
        "max_s": round(max(times), 2),
        "cpu_median_s": round(statistics.median(r[3] for r in results), 2),
        "load_average": round(os.getloadavg()[0], 1),
        "peak_rss_mb": max(r[1] for r in results),
        "output": results[-1][2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=2_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-analyze-") as folder:
        doc = Path(folder) / "big.md"
        doc.write_text(make_document(args.chars), encoding="utf-8")
        plan = series(["analyze-doc", str(doc), "--plan", "--json", "--quiet"], args.runs)
        digest = series(["analyze-doc", str(doc), "--budget", "8000", "--quiet"], args.runs)
    facts = json.loads(str(plan.pop("output")))
    digest_text = str(digest.pop("output"))
    summary = {
        "chars": facts["chars"],
        "tokens": facts["tokens"],
        "windows": len(facts["windows"]),
        "plan": plan,
        "digest": {**digest, "digest_chars": len(digest_text)},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(
        f"document: {facts['chars']:,} characters, {facts['tokens']:,} tokens, "
        f"{len(facts['windows'])} windows"
    )
    for name in ("plan", "digest"):
        row = summary[name]
        assert isinstance(row, dict)
        print(
            f"{name}: median {row['median_s']} s ({row['min_s']}-{row['max_s']}), CPU "
            f"{row['cpu_median_s']} s, peak RSS {row['peak_rss_mb']} MB, load average "
            f"{row['load_average']}  [{row['command']}]"
        )


if __name__ == "__main__":
    main()
