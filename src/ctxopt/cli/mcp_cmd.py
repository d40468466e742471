"""`ctxopt mcp`: serve the repository to coding agents over the Model Context Protocol."""

from __future__ import annotations

from ctxopt.cli.console import Terminal
from ctxopt.cli.options import DbOption, PathOption, QuietOption, RefOption
from ctxopt.cli.settings import settings_from_flags


def mcp(
    *,
    path: PathOption = None,
    ref: RefOption = None,
    db: DbOption = None,
    quiet: QuietOption = False,
) -> None:
    """Serve the repository's index to an agent over stdio (MCP) until the client closes it.

    Tools: query, pack, read_chunk, read_file, refresh and stats, with the options of the
    commands. Files changed between calls are re-indexed first. A repository URL is cloned
    (or fetched) at --ref and its clone indexed before serving, as `query` and `pack` do.
    stdout carries only the protocol; messages go to stderr.
    """
    from ctxopt.mcp_server.serve import serve

    terminal = Terminal(quiet=quiet)
    settings = settings_from_flags(
        path, terminal=terminal, announce_root=True, ref=ref, index_clone=True, db=db
    )
    serve(settings, quiet=quiet)
