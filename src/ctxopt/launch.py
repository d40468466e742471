"""The `ctxopt` command: `query` and `pack` go to the background server when one runs;
everything else, and they too without a server, runs here (`ctxopt.cli.main`).

Only the standard library is imported before that choice, so a call the server answers
costs this process next to nothing.
"""

from __future__ import annotations

import sys


def main() -> None:
    from ctxopt.interrupts import run_process

    run_process(_launch)


def _launch() -> None:
    from ctxopt.background.client import run_in_background, start_server

    argv = sys.argv[1:]
    outcome = run_in_background(argv)
    if outcome.code is not None:
        sys.exit(outcome.code)
    from ctxopt.cli import main as run_here

    code: object = 0
    try:
        run_here()
    except SystemExit as exc:
        code = exc.code
        raise
    finally:
        if outcome.address is not None and code in (0, None):
            start_server(outcome.address, argv)


if __name__ == "__main__":
    main()
