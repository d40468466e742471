"""`pack --copy`: the prompt to the system clipboard, through the tool the session has.

Looked for in this order, each only where it can work: `wl-copy` in a Wayland session
($WAYLAND_DISPLAY), `xclip` then `xsel` in an X session ($DISPLAY), `pbcopy` on macOS, and
pyperclip (the Windows clipboard API) on Windows.  A headless machine has none of them:
`find_clipboard` then says why in one line, before anything is packed.

The tool's stdout and stderr go to a file, not a pipe: xclip stays in the background to
serve the selection, and a pipe it holds open would keep ctxopt waiting for it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

from ctxopt.config.environment import GraphicalSession, graphical_session
from ctxopt.errors import CtxoptError

COPY_TIMEOUT = 10.0  # seconds a clipboard tool may take to read the prompt
WINDOWS = "windows clipboard (pyperclip)"
INSTEAD = "drop --copy to get the prompt on stdout, or write it with -o FILE"


@dataclass(frozen=True)
class ClipboardTool:
    name: str  # shown in the summary: "wl-copy", "xclip", ...
    argv: tuple[str, ...]  # the command that reads the text on stdin; () for pyperclip


def find_clipboard(
    session: GraphicalSession | None = None,
    *,
    which: Callable[[str], str | None] = shutil.which,
    platform: str = sys.platform,
) -> ClipboardTool:
    """The clipboard tool to copy with; CtxoptError naming what is missing when none works."""
    if platform == "win32":
        return ClipboardTool(WINDOWS, ())
    session = session or graphical_session()
    candidates: list[tuple[bool, tuple[str, ...]]] = [
        (session.wayland, ("wl-copy",)),
        (session.x11, ("xclip", "-selection", "clipboard")),
        (session.x11, ("xsel", "--clipboard", "--input")),
        (platform == "darwin", ("pbcopy",)),
    ]
    for usable, argv in candidates:
        if usable and which(argv[0]):
            return ClipboardTool(argv[0], argv)
    if session.wayland or session.x11:
        raise CtxoptError(
            "--copy: no clipboard tool found (wl-copy from wl-clipboard for Wayland, xclip or "
            f"xsel for X11); install one, or {INSTEAD}"
        )
    raise CtxoptError(
        "--copy: no clipboard on this machine (no graphical session: WAYLAND_DISPLAY and "
        f"DISPLAY are unset); {INSTEAD}"
    )


def copy_to_clipboard(tool: ClipboardTool, text: str) -> None:
    """Put text on the clipboard; CtxoptError in one line when the tool fails."""
    if not tool.argv:
        _copy_with_pyperclip(text)
        return
    with tempfile.TemporaryFile() as messages:
        try:
            done = subprocess.run(
                tool.argv,
                input=text.encode("utf-8"),
                stdout=messages,
                stderr=messages,
                timeout=COPY_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise CtxoptError(
                f"--copy: {tool.name} did not finish within {COPY_TIMEOUT:.0f} s"
            ) from None
        except OSError as exc:
            raise CtxoptError(f"--copy: cannot run {tool.name}: {exc.strerror or exc}") from None
        if done.returncode != 0:
            messages.seek(0)
            said = messages.read(2000).decode("utf-8", "replace").strip().splitlines()
            detail = f": {said[0]}" if said else ""
            raise CtxoptError(f"--copy: {tool.name} failed (exit {done.returncode}){detail}")


def _copy_with_pyperclip(text: str) -> None:
    import pyperclip

    try:
        pyperclip.copy(text)
    except pyperclip.PyperclipException as exc:
        raise CtxoptError(f"--copy: the clipboard refused the prompt: {exc}") from None
