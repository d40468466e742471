"""Growth since an earlier `ctxopt stats --json` run: per folder, per task, in total."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxopt.errors import UsageError

if TYPE_CHECKING:
    from ctxopt.index.stats import FolderTokens
    from ctxopt.pack.savings import TaskSavings

REPORT_SCHEMA = "ctxopt-stats/1"  # the "schema" field of `ctxopt stats --json`


@dataclass(frozen=True)
class Baseline:
    path: str
    generated_at: str
    repo_tokens: int
    depth: int
    folders: dict[str, int]  # folder -> tokens
    tasks: dict[str, int]  # task -> packed tokens


@dataclass(frozen=True)
class Growth:
    subject: str  # a folder, a task, or "repository"
    before: int  # tokens then (0 when new)
    after: int  # tokens now (0 when gone)

    @property
    def change(self) -> int:
        return self.after - self.before

    @property
    def percent(self) -> float | None:
        """Growth in %, None for something new (no tokens before)."""
        return round(100 * self.change / self.before, 2) if self.before else None


@dataclass(frozen=True)
class BaselineDiff:
    path: str
    generated_at: str
    repository: Growth
    folders: tuple[Growth, ...]  # changed folders, largest change first
    tasks: tuple[Growth, ...]  # packed tokens of tasks in both runs, in this run's order


def read_baseline(path: Path) -> Baseline:
    """An earlier report (UsageError in one line when missing or not a stats report)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise UsageError(f"baseline {path} does not exist") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read baseline {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"baseline {path} is not valid JSON: {exc.msg} at line {exc.lineno}"
        ) from exc
    if not isinstance(data, dict) or data.get("schema") != REPORT_SCHEMA:
        raise UsageError(f"baseline {path} is not the output of `ctxopt stats --json`")
    try:
        return _baseline(str(path), data)
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"baseline {path} lacks a field of `ctxopt stats --json`: {exc}") from exc


def _baseline(path: str, data: dict[str, Any]) -> Baseline:
    return Baseline(
        path=path,
        generated_at=str(data.get("generated_at", "")),
        repo_tokens=int(data["tokens"]),
        depth=int(data["depth"]),
        folders={str(f["folder"]): int(f["tokens"]) for f in data["folders"]},
        tasks={str(t["task"]): int(t["packed_tokens"]) for t in data.get("tasks", [])},
    )


def compare(
    baseline: Baseline,
    *,
    repo_tokens: int,
    depth: int,
    folders: Sequence[FolderTokens],
    tasks: Sequence[TaskSavings],
) -> BaselineDiff:
    if baseline.depth != depth:
        raise UsageError(
            f"baseline {baseline.path} counts folders at --depth {baseline.depth}; "
            f"run with --depth {baseline.depth} to compare"
        )
    now = {f.folder: f.tokens for f in folders}
    names = sorted(set(now) | set(baseline.folders))
    changed = [
        Growth(name, baseline.folders.get(name, 0), now.get(name, 0))
        for name in names
        if baseline.folders.get(name, 0) != now.get(name, 0)
    ]
    changed.sort(key=lambda g: (-abs(g.change), g.subject))
    return BaselineDiff(
        path=baseline.path,
        generated_at=baseline.generated_at,
        repository=Growth("repository", baseline.repo_tokens, repo_tokens),
        folders=tuple(changed),
        tasks=tuple(
            Growth(t.task, baseline.tasks[t.task], t.packed_tokens)
            for t in tasks
            if t.task in baseline.tasks
        ),
    )
