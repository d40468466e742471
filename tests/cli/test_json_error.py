"""Which command lines get a failed command's JSON value, and that it is never a second one."""

from __future__ import annotations

import importlib
import io
import json
import sys

import pytest

from ctxopt.cli import streams
from ctxopt.cli.json_error import print_json_error, wants_json
from ctxopt.errors import (
    BudgetError,
    CtxoptError,
    IndexBusyError,
    IndexMissingError,
    UsageError,
)


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["pack", "task", "--json"], True),
        (["query", "--json", "task"], True),
        (["stats", "--json-file", "r.json"], False),  # a file for the report, not stdout
        (["pack", "--", "--json"], False),  # after `--` it is the task's text
        (["mcp", "--json"], False),  # stdout is the protocol
        ([], False),
        (["pack", "task"], False),
    ],
)
def test_wants_json(args: list[str], wanted: bool) -> None:
    assert wants_json(args) is wanted


def test_the_value_once_and_only_before_anything_else(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = io.StringIO()
    monkeypatch.setattr(sys, "stdout", fresh)
    streams.guard_streams()
    print_json_error(["pack", "t", "--json"], "budget", "too small", 3)
    assert json.loads(fresh.getvalue()) == {
        "error": {"kind": "budget", "message": "too small", "exit_code": 3}
    }
    printed = io.StringIO()
    monkeypatch.setattr(sys, "stdout", printed)
    streams.guard_streams()
    sys.stdout.write('{"prompt": "..."}\n')  # the command's own value went out first
    print_json_error(["pack", "t", "--json"], "internal", "boom", 1)
    assert printed.getvalue() == '{"prompt": "..."}\n'


def _subclasses(cls: type[CtxoptError]) -> list[type[CtxoptError]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_error_class_has_a_kind_of_its_own() -> None:
    """A caller branches on `kind`, never on the wording: no two kinds of failure share one."""
    for module in ("ctxopt.discover.clone", "ctxopt.analyze.read", "ctxopt.cli.streams"):
        importlib.import_module(module)
    classes = [CtxoptError, *_subclasses(CtxoptError)]
    assert {UsageError, IndexMissingError, BudgetError, IndexBusyError} <= set(classes)
    kinds = [cls.kind for cls in classes]
    assert len(set(kinds)) == len(kinds), kinds
    assert all(kind.isidentifier() and kind.islower() for kind in kinds)
