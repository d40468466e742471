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


# A task as a report lists it: its text, budget and model, and which repeat of those it is
# (a tasks file may hold the same text twice).  Only the same key is compared: a task packed
# at another budget or priced at another model is a new task, not growth.
TaskKey = tuple[str, int, str, int]


def task_keys(tasks: Sequence[tuple[str, int, str]]) -> list[TaskKey]:
    """Each (text, budget, model) with its ordinal among equal ones, in order."""
    seen: dict[tuple[str, int, str], int] = {}
    keys = []
    for task in tasks:
        seen[task] = seen.get(task, -1) + 1
        keys.append((*task, seen[task]))
    return keys


@dataclass(frozen=True)
class Baseline:
    path: str
    generated_at: str
    repo_tokens: int
    depth: int
    folders: dict[str, int]  # folder -> tokens
    tasks: dict[TaskKey, int]  # a task's text, budget, model and ordinal -> packed tokens


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
    schema = data.get("schema") if isinstance(data, dict) else None
    if isinstance(schema, str) and schema.startswith("ctxopt-stats/") and schema != REPORT_SCHEMA:
        raise UsageError(
            f"baseline {path} is a report of schema {schema}, which this ctxopt does not read "
            f"({REPORT_SCHEMA}); make a new baseline with `ctxopt stats --json`"
        )
    if not isinstance(data, dict) or schema != REPORT_SCHEMA:
        raise UsageError(f"baseline {path} is not the output of `ctxopt stats --json`")
    try:
        return _baseline(str(path), data)
    except KeyError as exc:
        raise UsageError(f"baseline {path} lacks the field {exc} of `ctxopt stats --json`") from exc
    except (TypeError, ValueError) as exc:
        raise UsageError(
            f"baseline {path} holds a value of the wrong kind for `ctxopt stats --json` "
            "(a count that is not a whole number, say)"
        ) from exc


def _baseline(path: str, data: dict[str, Any]) -> Baseline:
    listed = data.get("tasks", [])
    return Baseline(
        path=path,
        generated_at=str(data.get("generated_at", "")),
        repo_tokens=int(data["tokens"]),
        depth=int(data["depth"]),
        folders={str(f["folder"]): int(f["tokens"]) for f in data["folders"]},
        tasks=dict(
            zip(
                task_keys([(str(t["task"]), int(t["budget"]), str(t["model"])) for t in listed]),
                (int(t["packed_tokens"]) for t in listed),
                strict=True,
            )
        ),
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
        tasks=_task_growth(baseline, tasks),
    )


UNRELATED_SHARE = 0.5  # a baseline with less of its tokens in folders this index has ...


def shares_little(baseline: Baseline, folders: Sequence[FolderTokens]) -> float | None:
    """The share of the baseline's tokens in folders this index still has, when it is under
    UNRELATED_SHARE (a baseline made from another repository, most likely); None otherwise."""
    total = sum(baseline.folders.values())
    if not total:
        return None
    present = {f.folder for f in folders}
    share = sum(t for name, t in baseline.folders.items() if name in present) / total
    return share if share < UNRELATED_SHARE else None


def _task_growth(baseline: Baseline, tasks: Sequence[TaskSavings]) -> tuple[Growth, ...]:
    """Each task of this run against the same task of the baseline (new when it has none),
    then the baseline's tasks this run lacks (gone)."""
    keys = task_keys([(t.task, t.budget, t.model) for t in tasks])
    label = _labels([*keys, *baseline.tasks])
    now = [
        Growth(label[k], baseline.tasks.get(k, 0), t.packed_tokens)
        for k, t in zip(keys, tasks, strict=True)
    ]
    gone = [Growth(label[k], before, 0) for k, before in baseline.tasks.items() if k not in keys]
    return (*now, *gone)


def _labels(keys: Sequence[TaskKey]) -> dict[TaskKey, str]:
    """The task's text, with its budget and model when another listed task shares the text."""
    texts: dict[str, set[TaskKey]] = {}
    for key in keys:
        texts.setdefault(key[0], set()).add(key)
    return {key: key[0] if len(texts[key[0]]) == 1 else _full_label(key) for key in keys}


def _full_label(key: TaskKey) -> str:
    text, budget, model, ordinal = key
    repeat = f", #{ordinal + 1}" if ordinal else ""
    return f"{text} ({budget:,} tokens, {model}{repeat})"
