"""Tasks for the savings report: from flags or a file, checked before anything is packed.

A tasks file is read by its extension:

- ``.yaml`` / ``.yml`` / ``.json``: a list (or ``{"tasks": [...]}``) whose entries are
  a task string or a mapping ``{task: TEXT, budget: N, model: NAME}`` (budget and model
  optional);
- anything else: one task per line; blank lines and lines starting with ``#`` are skipped.

Every problem is a UsageError naming the file (and the entry) in one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ctxopt.chunking.decode import byte_order_mark
from ctxopt.errors import UsageError
from ctxopt.pack.models import find_model
from ctxopt.types import ModelInfo

YAML_SUFFIXES = (".yaml", ".yml")
ENTRY_KEYS = ("task", "budget", "model")


@dataclass(frozen=True)
class SavingsTask:
    task: str
    budget: int | None = None  # None: the report's --budget
    model: str | None = None  # None: the report's --model (a full name once checked)


def read_tasks_file(path: Path, models: dict[str, ModelInfo]) -> tuple[SavingsTask, ...]:
    """The tasks in path, with model names resolved against the model table."""
    try:
        text = _text_of(path.read_bytes())
    except FileNotFoundError as exc:
        raise UsageError(f"tasks file {path} does not exist") from exc
    except IsADirectoryError as exc:
        raise UsageError(f"tasks file {path} is a folder; give a file") from exc
    except OSError as exc:
        raise UsageError(f"cannot read tasks file {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"tasks file {path} is not UTF-8 text: {exc.reason}") from exc
    suffix = path.suffix.lower()
    if suffix in YAML_SUFFIXES or suffix == ".json":
        entries = _structured_entries(path, text, suffix)
        tasks = tuple(_entry(path, number, raw) for number, raw in enumerate(entries, 1))
    else:
        tasks = tuple(
            SavingsTask(line.strip())
            for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        )
    if not tasks:
        raise UsageError(f"tasks file {path} holds no task")
    return check_tasks(tasks, models, source=str(path))


def _text_of(data: bytes) -> str:
    """UTF-8, or the encoding a byte order mark names (UTF-16 is what PowerShell's `>`
    writes); the mark is not part of the first task."""
    marked = byte_order_mark(data)
    if marked is None:
        return data.decode("utf-8")
    bom, encoding = marked
    return data[len(bom) :].decode(encoding)


def check_tasks(
    tasks: tuple[SavingsTask, ...], models: dict[str, ModelInfo], *, source: str
) -> tuple[SavingsTask, ...]:
    """Tasks with their model names made full; an unknown model is a UsageError."""
    out = []
    for number, task in enumerate(tasks, 1):
        model = task.model
        if model is not None:
            try:
                model = find_model(model, models).name
            except UsageError as exc:
                raise UsageError(f"{source}: task {number}: {exc}") from exc
        out.append(SavingsTask(task.task, task.budget, model))
    return tuple(out)


def _structured_entries(path: Path, text: str, suffix: str) -> list[Any]:
    data = _parse_yaml(path, text) if suffix in YAML_SUFFIXES else _parse_json(path, text)
    if isinstance(data, dict) and set(data) == {"tasks"}:
        data = data["tasks"]
    if data is None:
        raise UsageError(f"tasks file {path} is empty: list the tasks to pack, one entry each")
    if not isinstance(data, list):
        raise UsageError(
            f"tasks file {path}: expected a list of tasks (or a 'tasks:' list), got {_kind(data)}"
        )
    return data


def _kind(data: object) -> str:
    """What a parsed file holds, in words (not a Python type's name)."""
    if isinstance(data, dict):
        return "a mapping of keys"
    if isinstance(data, str):
        return "a single text"
    return "a single value"


def _parse_yaml(path: Path, text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "unreadable YAML"
        raise UsageError(f"tasks file {path} is not valid YAML{where}: {problem}") from exc


def _parse_json(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"tasks file {path} is not valid JSON at line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}"
        ) from exc


def _entry(path: Path, number: int, raw: Any) -> SavingsTask:
    where = f"tasks file {path}, entry {number}"
    if isinstance(raw, str):
        raw = {"task": raw}
    if not isinstance(raw, dict):
        raise UsageError(f"{where}: expected a task text or a mapping with 'task'")
    unknown = sorted(str(key) for key in raw if key not in ENTRY_KEYS)
    if unknown:
        raise UsageError(f"{where}: unknown key {', '.join(unknown)} (known: task, budget, model)")
    task = raw.get("task")
    if not isinstance(task, str) or not task.strip():
        raise UsageError(f"{where}: 'task' must be a non-empty text")
    budget = raw.get("budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)):
        raise UsageError(f"{where}: 'budget' must be a whole number of tokens, got {budget!r}")
    if budget is not None and budget <= 0:
        raise UsageError(f"{where}: 'budget' must be positive, got {budget}")
    model = raw.get("model")
    if model is not None and not isinstance(model, str):
        raise UsageError(f"{where}: 'model' must be a model name, got {model!r}")
    return SavingsTask(task.strip(), budget, model)
