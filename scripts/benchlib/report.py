"""Render a benchmark report as a table or as one JSON object."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from benchlib.metrics import Summary, summarise
from benchlib.run import BenchReport, CaseResult, selected_methods

_COLUMNS = (
    "method",
    "budget",
    "file_recall",
    "all_files",
    "hit_rate",
    "line_cov",
    "all_funcs",
    "func_recall",
    "tokens",
    "over_budget",
    "cases",
)


def summaries(report: BenchReport) -> dict[str, dict[int, Summary]]:
    """Method -> budget -> means over the report's cases."""
    out: dict[str, dict[int, Summary]] = {}
    for method in selected_methods(report):
        out[method] = {
            budget: summarise([r.scores[method][budget] for r in report.results])
            for budget in sorted(report.options.budgets)
        }
    return out


def render_table(report: BenchReport) -> str:
    """A readable method x budget table with a header naming the repo, range and cases."""
    header = (
        f"repo {report.repo}  head {report.head[:12]}  range {report.range}  "
        f"cases {len(report.results)}  mode {report.options.mode}"
    )
    rows = [_COLUMNS]
    for method, by_budget in summaries(report).items():
        for budget, s in by_budget.items():
            rows.append(
                (
                    method,
                    str(budget),
                    f"{s.file_recall:.3f}",
                    f"{s.all_files:.3f}",
                    f"{s.hit_rate:.3f}",
                    f"{s.line_coverage:.3f}",
                    f"{s.all_functions:.3f}",
                    f"{s.function_recall:.3f}",
                    f"{s.mean_tokens:.0f}",
                    str(s.over_budget),
                    str(s.cases),
                )
            )
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    lines = [header, ""]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"


def _case_json(result: CaseResult) -> dict[str, Any]:
    case = result.case
    return {
        "sha": case.sha,
        "parent": case.parent,
        "time": case.time,
        "subject": case.subject,
        "task": case.task,
        "gold": [{"file": g.path, "lines": list(g.lines)} for g in case.gold],
        "results": {
            method: {str(b): asdict(score) for b, score in sorted(by_budget.items())}
            for method, by_budget in sorted(result.scores.items())
        },
    }


def to_json(report: BenchReport) -> dict[str, Any]:
    """One JSON-ready object: repo, head, range, cases, metrics and per-case details."""
    metrics = {
        method: {str(b): asdict(s) for b, s in by_budget.items()}
        for method, by_budget in summaries(report).items()
    }
    first = report.results[0].case if report.results else None
    last = report.results[-1].case if report.results else None
    return {
        "repo": report.repo,
        "repo_path": str(report.options.repo.resolve()),
        "head": report.head,
        "range": {
            "from": first.parent if first else None,
            "to": last.sha if last else None,
            "since": report.options.since,
        },
        "cases": len(report.results),
        "mode": report.options.mode,
        "budgets": sorted(report.options.budgets),
        "methods": metrics,
        "skipped": report.skipped,
        "details": [_case_json(r) for r in report.results],
    }
