"""Plain command-line values converted without pydantic (issue 16: start-up latency).

Recent typer versions convert every parameter's value with a pydantic `TypeAdapter` built
on first use: importing pydantic and building the adapters costs about 0.1 s of CPU on
every run, more than parsing itself. ctxopt's parameters are nearly all plain (`str`,
`int` without clamping, `list[str]`, flags), whose conversion pydantic does not change.
`plain_values` gives each parameter of a built command a converter that returns such
values directly and hands anything else (a float, a path, an integer written with a sign,
spaces or underscores, a bound that fails) to typer's own pydantic converter, built only
then: results and error messages stay typer's own.

Typer versions without this machinery (no `typer._coercion`) are left untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_DIGITS = re.compile(r"[0-9]+")
_UNSET = object()


def _plain_str(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from undecodable argv: pydantic decides
        return False
    return True


def _plain_int(value: object, info: Any) -> object:
    """The int pydantic would give for value, or _UNSET when only pydantic can tell."""
    if getattr(info, "clamp", False):
        return _UNSET
    if type(value) is int:
        number = value
    elif isinstance(value, str) and _DIGITS.fullmatch(value):
        number = int(value)
    else:
        return _UNSET
    low, high = getattr(info, "min", None), getattr(info, "max", None)
    if (low is not None and number < low) or (high is not None and number > high):
        return _UNSET  # the error message is typer's
    return number


def _plain(annotation: object, value: object, info: Any) -> object:
    if getattr(info, "parser", None) is not None:
        return _UNSET
    if annotation is bool:
        return value if type(value) is bool else _UNSET
    if annotation is str:
        return value if _plain_str(value) else _UNSET
    if annotation is int:
        return _plain_int(value, info)
    of_str = getattr(annotation, "__origin__", None) is list and getattr(
        annotation, "__args__", ()
    ) == (str,)
    if of_str and isinstance(value, (list, tuple)) and all(_plain_str(v) for v in value):
        return list(value)
    return _UNSET


def plain_values(command: Any) -> None:
    """Give every typer parameter of command (and its subcommands) the plain converter."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
    except ImportError:  # an older typer: no pydantic on this path
        return

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):  # type: ignore[misc]
        descriptor: Any = None
        _typer_param: list[Any] = field(default_factory=list)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            result = _plain(self.annotation, value, self.parameter_info)
            if result is not _UNSET:
                return result
            if not self._typer_param:
                self._typer_param.append(build_runtime_param(self.descriptor))
            return self._typer_param[0]._coerce_value(value, param=param, ctx=ctx)

    def install(param: Any) -> Any:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", _UNSET) is not None:
            return param
        if descriptor.file_annotation is not None:
            return param
        param._runtime_param = PlainRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
        )
        return param

    for each in _commands(command):
        for param in getattr(each, "params", ()):
            install(param)
        _wrap_help_option(each, install)


def _wrap_help_option(command: Any, install: Any) -> None:
    """--help is a parameter made on first use, outside `params`: convert it plainly too."""
    made = getattr(command, "get_help_option", None)
    if made is None:
        return

    def get_help_option(ctx: Any) -> Any:
        option = made(ctx)
        return option if option is None else install(option)

    command.get_help_option = get_help_option


def _commands(command: Any) -> list[Any]:
    found = [command]
    for sub in getattr(command, "commands", {}).values():
        found.extend(_commands(sub))
    return found
