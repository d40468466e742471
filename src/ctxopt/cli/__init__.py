"""The ctxopt command line: thin commands over the library."""

from __future__ import annotations

import sys

import typer

from ctxopt import __version__
from ctxopt.cli import analyze_cmd, index_cmd, mcp_cmd, pack_cmd, query_cmd, stats_cmd, tune_cmd
from ctxopt.cli.closed_stdout import OutputClosed, guard_stdout, silence_stdout
from ctxopt.cli.console import Terminal
from ctxopt.cli.examples import epilog
from ctxopt.config.environment import debugging
from ctxopt.errors import CtxoptError

app = typer.Typer(
    name="ctxopt",
    help="Turn a code repository into the smallest prompt that still holds what an LLM needs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ctxopt {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """ctxopt: index a repository, query it, and pack the best prompt for a task."""


app.command("index", epilog=epilog("index"))(index_cmd.index)
app.command("query", epilog=epilog("query"))(query_cmd.query)
app.command("pack", epilog=epilog("pack"))(pack_cmd.pack)
app.command("stats", epilog=epilog("stats"))(stats_cmd.stats)
app.command("tune", epilog=epilog("tune"))(tune_cmd.tune)
app.command("analyze-doc", epilog=epilog("analyze-doc"))(analyze_cmd.analyze_doc)
app.command("mcp", epilog=epilog("mcp"))(mcp_cmd.mcp)


def main() -> None:
    """Entry point: expected errors become one line on stderr and a non-zero exit; a reader
    that closes stdout early ends the run silently with exit 0; bare `ctxopt` is `--help`."""
    guard_stdout()
    try:
        code = app(args=sys.argv[1:] or ["--help"], prog_name="ctxopt", standalone_mode=False)
    except OutputClosed:
        silence_stdout()
        sys.exit(0)
    except CtxoptError as exc:
        Terminal().error(str(exc))
        sys.exit(exc.exit_code)
    except typer.TyperException as exc:  # usage errors: one line, and where the help is
        ctx = getattr(exc, "ctx", None)
        where = getattr(ctx, "command_path", None) or "ctxopt"
        Terminal().error(f"{exc.format_message()} (see `{where} --help`)")
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        Terminal().error("aborted")
        sys.exit(130)
    except KeyboardInterrupt:
        Terminal().error("interrupted")
        sys.exit(130)
    except Exception as exc:  # a bug: still one line, unless debugging
        if debugging():
            raise
        Terminal().error(
            f"internal error: {type(exc).__name__}: {exc} (set CTXOPT_DEBUG=1 for the traceback)"
        )
        sys.exit(1)
    # Without standalone mode typer turns Ctrl-C into a returned 130 (and typer.Exit into its
    # code) instead of raising: an ignored return value used to make an interrupted run exit 0.
    if isinstance(code, int) and code:
        if code == INTERRUPTED_CODE:
            Terminal().error("interrupted")
        sys.exit(code)


INTERRUPTED_CODE = 130
