"""The ctxopt command line: thin commands over the library."""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import typer
import typer.main

from ctxopt import __version__, interrupts
from ctxopt.app.held import command_scope
from ctxopt.cli.console import Terminal
from ctxopt.cli.examples import epilog
from ctxopt.cli.json_error import print_json_error
from ctxopt.cli.option_synonyms import instead_of
from ctxopt.cli.plain_params import plain_values
from ctxopt.cli.streams import OutputClosed, OutputFailed, guard_streams, silence_stdout
from ctxopt.config.environment import debugging
from ctxopt.errors import CtxoptError, InterruptedRun
from ctxopt.interrupts import INTERRUPTED_EXIT_CODE

# command name -> (module under ctxopt.cli, function); the order is --help's
COMMANDS: dict[str, tuple[str, str]] = {
    "index": ("index_cmd", "index"),
    "query": ("query_cmd", "query"),
    "pack": ("pack_cmd", "pack"),
    "stats": ("stats_cmd", "stats"),
    "tune": ("tune_cmd", "tune"),
    "analyze-doc": ("analyze_cmd", "analyze_doc"),
    "mcp": ("mcp_cmd", "mcp"),
}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ctxopt {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """ctxopt: index a repository, query it, and pack the best prompt for a task."""


def build_app(names: list[str] | None = None) -> typer.Typer:
    """The typer app with the named commands (default: all); only their modules are imported."""
    built = typer.Typer(
        name="ctxopt",
        help="Turn a code repository into the smallest prompt that still holds what an LLM needs.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    built.callback()(_root)
    for name in names if names is not None else list(COMMANDS):
        module, function = COMMANDS[name]
        callback = getattr(importlib.import_module(f"ctxopt.cli.{module}"), function)
        built.command(name, epilog=epilog(name))(callback)
    return built


def __getattr__(name: str) -> Any:
    """`app`, the whole typer app, built on first use (tests and tools read its commands)."""
    if name == "app":
        built = build_app()
        globals()["app"] = built
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run(args: list[str]) -> Any:
    """Parse and run: a known command name first builds only that command (and imports
    only its module); anything else (--help, --version, a typo) builds them all."""
    names = [args[0]] if args and args[0] in COMMANDS else None
    command = typer.main.get_command(build_app(names))
    plain_values(command)
    with command_scope():  # what the command holds (a cloned URL's lock) goes when it ends
        return command.main(args=args, prog_name="ctxopt", standalone_mode=False)


def _help_of(exc: Exception, args: list[str]) -> str:
    """The command whose --help fits a usage error: the one its context names, else the
    command the arguments start with (a missing option value is raised without one)."""
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    if path and path != "ctxopt":
        return str(path)
    return f"ctxopt {args[0]}" if args and args[0] in COMMANDS else "ctxopt"


def _usage_message(exc: typer.TyperException, where: str, args: list[str]) -> str:
    """A usage error's message and where the help is; an "option" that is part of an argument
    with a space in it is a text that starts with "-" (a task such as "--exec panics on ...",
    or "--threads=1 runs ..." that click splits at its "="): how to pass it, whole."""
    option = getattr(exc, "option_name", None)
    if isinstance(option, str) and option.startswith("-"):
        text = next((a for a in args if a.startswith(option) and a != option), option)
        if any(c.isspace() for c in text):
            return (
                f"{text!r} is not an option; a text that starts with '-' goes last, after `--`:"
                f" {where} [OPTIONS] -- {text!r}"
            )
    ours = _ours_instead(exc)
    if ours:  # in place of click's look-alikes by spelling (`--force`: "--ref, --workers")
        return f"{exc.message}; did you mean {ours}? (see `{where} --help`)"
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    return f"{message} (see `{where} --help`)"


def _ours_instead(exc: typer.TyperException) -> str | None:
    """For an unknown option that other tools spell so (`--limit`, `--max-tokens`), the
    command's own option for it (click's NoSuchOption names the option and has a context)."""
    option = getattr(exc, "option_name", None)
    ctx = getattr(exc, "ctx", None)
    if not hasattr(exc, "possibilities") or not isinstance(option, str) or ctx is None:
        return None
    known = {name for param in ctx.command.params for name in param.opts + param.secondary_opts}
    return instead_of(option, known)


def main() -> None:
    """Entry point: expected errors become one line on stderr and a non-zero exit; a reader
    that closes stdout early ends the run silently with exit 0; bare `ctxopt` is `--help`."""
    guard_streams()
    interrupts.install()
    before = interrupts.count()
    args = sys.argv[1:]
    try:
        code = _run(args or ["--help"])
        sys.stdout.flush()  # a full disk shows here, not in the flush at exit
    except OutputClosed:
        silence_stdout()
        sys.exit(0)
    except OutputFailed as exc:
        silence_stdout()
        Terminal().error(str(exc))
        sys.exit(exc.exit_code)
    except CtxoptError as exc:
        if not isinstance(exc, InterruptedRun):  # that one already says how the run ended
            _exit_if_interrupted(before, args)  # e.g. "damaged": a library's error of Ctrl-C
        _fail(args, exc.kind, str(exc), exc.exit_code)
    except typer.TyperException as exc:  # usage errors: one line, and where the help is
        where = _help_of(exc, args)
        _fail(args, "usage", _usage_message(exc, where, args), exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        _fail(args, "interrupted", "aborted", INTERRUPTED_EXIT_CODE)
    except KeyboardInterrupt:
        _fail(args, "interrupted", "interrupted", INTERRUPTED_EXIT_CODE)
    except Exception as exc:  # a bug: still one line, unless debugging
        _exit_if_interrupted(before, args)
        if debugging():
            raise
        message = f"internal error: {type(exc).__name__}: {exc}"
        _fail(args, "internal", f"{message} (set CTXOPT_DEBUG=1 for the traceback)", 1)
    # Without standalone mode typer turns Ctrl-C into a returned 130 (and typer.Exit into its
    # code) instead of raising: an ignored return value used to make an interrupted run exit 0.
    if isinstance(code, int) and code:
        if code == INTERRUPTED_EXIT_CODE:
            _fail(args, "interrupted", "interrupted", code)
        sys.exit(code)


def _fail(args: list[str], kind: str, message: str, code: int) -> NoReturn:
    """End the command as failed: the message as one line on stderr, with `--json` also as
    the JSON value on stdout (cli.json_error), and the exit code."""
    Terminal().error(message)
    print_json_error(args, kind, message, code)
    sys.exit(code)


def _exit_if_interrupted(before: int, args: list[str]) -> None:
    """Exit as interrupted when Ctrl-C came during the command: the error being handled is
    then what a library made of the KeyboardInterrupt (see interrupts.py)."""
    if interrupts.since(before):
        _fail(args, "interrupted", "interrupted", INTERRUPTED_EXIT_CODE)
