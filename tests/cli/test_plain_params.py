"""Plain parameter conversion gives what typer's pydantic conversion gives, without pydantic."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
import typer.main

from ctxopt.cli import COMMANDS, build_app
from ctxopt.cli.plain_params import plain_values

typer_coercion = pytest.importorskip("typer._coercion")


def _command(name: str) -> Any:
    built = typer.main.get_command(build_app([name]))
    plain_values(built)
    return built.commands[name]  # type: ignore[attr-defined]


def _param(command: Any, name: str) -> Any:
    return next(param for param in command.params if param.name == name)


def _both(param: Any, value: object) -> tuple[object, object]:
    """(plain, typer's own) conversion of value; an error is its message."""
    ctx = typer.Context(_command("query"))
    results: list[object] = []
    for runtime in (
        param.get_runtime_param(),
        typer_coercion.build_runtime_param(param.type_descriptor),
    ):
        try:
            results.append(runtime.coerce(value, param=param, ctx=ctx))
        except typer.BadParameter as exc:
            results.append(("error", exc.format_message()))
    return results[0], results[1]


@pytest.mark.parametrize(
    ("command", "name", "value"),
    [
        ("query", "text", "fix the parser"),
        ("query", "text", "caf\u00e9 \u2014 \U0001f600"),
        ("query", "k", "5"),
        ("query", "k", "007"),
        ("query", "k", " 5"),
        ("query", "k", "+5"),
        ("query", "k", "-3"),
        ("query", "k", "1_000"),
        ("query", "k", "5.0"),
        ("query", "k", "five"),
        ("query", "k", None),
        ("query", "lang", ("py", "rs")),
        ("query", "lang", ()),
        ("query", "lang", None),
        ("query", "explain", True),
        ("index", "workers", "0"),
        ("index", "workers", "2"),
        ("index", "max_file_bytes", "1048576"),
        ("pack", "budget", "8000"),
        ("pack", "budget", "8k"),
    ],
)
def test_plain_conversion_equals_typers(command: str, name: str, value: object) -> None:
    plain, typers = _both(_param(_command(command), name), value)
    assert plain == typers
    assert type(plain) is type(typers)


def test_every_parameter_of_every_command_gets_the_plain_converter() -> None:
    for name in COMMANDS:
        for param in _command(name).params:
            assert type(param.get_runtime_param()).__name__ == "PlainRuntimeParam", param.name


def test_a_run_with_plain_values_never_imports_pydantic_or_rich() -> None:
    code = (
        "import sys\n"
        "sys.argv = ['ctxopt', 'query', '--help']\n"
        "from ctxopt.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write(repr(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'ctxopt'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stderr
    assert "'pydantic" not in loaded
    assert "ctxopt.cli.query_cmd" in loaded
    assert "ctxopt.cli.analyze_cmd" not in loaded  # only the command asked for is imported


def test_a_bad_value_still_reads_as_typers_message() -> None:
    plain, typers = _both(_param(_command("index"), "workers"), "0")
    assert plain == typers
    assert isinstance(plain, tuple) and plain[0] == "error"
