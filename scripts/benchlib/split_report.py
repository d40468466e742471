"""Report a whole split: per repository and overall (the mean over all cases, not repos)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from benchlib.metrics import CaseScore, Summary, summarise
from benchlib.run import METHODS, BenchReport

COLUMNS = (
    "repo",
    "method",
    "budget",
    "file_recall",
    "all_files",
    "line_cov",
    "all_funcs",
    "func_recall",
    "tokens",
    "over_budget",
    "cases",
)
OVERALL = "overall"


@dataclass(frozen=True)
class RepoScores:
    """One repository's per-case scores: method -> budget -> scores in case order."""

    name: str
    language: str
    head: str
    scores: dict[str, dict[int, list[CaseScore]]]


def from_report(report: BenchReport, name: str, language: str) -> RepoScores:
    scores: dict[str, dict[int, list[CaseScore]]] = {}
    for method in (m for m in METHODS if m in report.options.methods):
        scores[method] = {
            b: [r.scores[method][b] for r in report.results] for b in sorted(report.options.budgets)
        }
    return RepoScores(name, language, report.head, scores)


def from_json(data: dict[str, Any], name: str | None = None, language: str = "") -> RepoScores:
    """Rebuild a repository's scores from the --json output of a single-repository run."""
    scores: dict[str, dict[int, list[CaseScore]]] = {}
    for detail in data["details"]:
        for method, by_budget in detail["results"].items():
            for budget, score in by_budget.items():
                fields = dict(score, files_hit=tuple(score["files_hit"]))
                scores.setdefault(method, {}).setdefault(int(budget), []).append(
                    CaseScore(**fields)
                )
    ordered = {m: scores[m] for m in METHODS if m in scores}
    return RepoScores(name or str(data["repo"]), language, str(data["head"]), ordered)


def overall(repos: list[RepoScores]) -> dict[str, dict[int, Summary]]:
    """Method -> budget -> means over every case of every repository that ran the method."""
    pooled: dict[str, dict[int, list[CaseScore]]] = {}
    for repo in repos:
        for method, by_budget in repo.scores.items():
            for budget, scores in by_budget.items():
                pooled.setdefault(method, {}).setdefault(budget, []).extend(scores)
    return {
        m: {b: summarise(s) for b, s in sorted(pooled[m].items())} for m in METHODS if m in pooled
    }


def _per_repo(repo: RepoScores) -> dict[str, dict[int, Summary]]:
    return {m: {b: summarise(s) for b, s in sorted(by.items())} for m, by in repo.scores.items()}


def _row(label: str, method: str, budget: int, s: Summary) -> tuple[str, ...]:
    return (
        label,
        method,
        str(budget),
        f"{s.file_recall:.3f}",
        f"{s.all_files:.3f}",
        f"{s.line_coverage:.3f}",
        f"{s.all_functions:.3f}",
        f"{s.function_recall:.3f}",
        f"{s.mean_tokens:.0f}",
        str(s.over_budget),
        str(s.cases),
    )


def render_split(role: str, repos: list[RepoScores]) -> str:
    """One table: every repository's rows, then the overall rows."""
    rows: list[tuple[str, ...]] = [COLUMNS]
    for repo in repos:
        label = f"{repo.name} ({repo.language})" if repo.language else repo.name
        for method, by_budget in _per_repo(repo).items():
            rows.extend(_row(label, method, b, s) for b, s in by_budget.items())
    for method, by_budget in overall(repos).items():
        rows.extend(_row(OVERALL, method, b, s) for b, s in by_budget.items())
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    total = sum(len(next(iter(next(iter(r.scores.values())).values()))) for r in repos if r.scores)
    lines = [f"split {role}  repositories {len(repos)}  cases {total}", ""]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(row[2:], widths[2:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"


def split_json(role: str, repos: list[RepoScores], details: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall and per-repository means, with each repository's full single-run JSON."""

    def as_json(by_method: dict[str, dict[int, Summary]]) -> dict[str, Any]:
        return {m: {str(b): asdict(s) for b, s in by.items()} for m, by in by_method.items()}

    return {
        "split": role,
        "overall": as_json(overall(repos)),
        "repos": [
            {
                "name": r.name,
                "language": r.language,
                "head": r.head,
                "methods": as_json(_per_repo(r)),
            }
            for r in repos
        ],
        "runs": details,
    }
