"""Which clipboard tool `pack --copy` picks, and how a missing or failing one is reported."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ctxopt.cli.clipboard import ClipboardTool, copy_to_clipboard, find_clipboard
from ctxopt.config.environment import GraphicalSession
from ctxopt.errors import CtxoptError

HEADLESS = GraphicalSession(wayland=False, x11=False)


def only(*names: str) -> Callable[[str], str | None]:
    """A shutil.which that finds only names."""
    return lambda name: f"/usr/bin/{name}" if name in names else None


def test_headless_says_why_even_with_tools_installed() -> None:
    with pytest.raises(CtxoptError) as raised:
        find_clipboard(HEADLESS, which=only("xclip", "wl-copy"), platform="linux")
    message = str(raised.value)
    assert "no graphical session" in message
    assert "WAYLAND_DISPLAY and DISPLAY are unset" in message
    assert "-o FILE" in message and "\n" not in message


def test_a_session_without_a_tool_names_the_tools_to_install() -> None:
    with pytest.raises(CtxoptError, match="xclip or xsel"):
        find_clipboard(GraphicalSession(wayland=False, x11=True), which=only(), platform="linux")


@pytest.mark.parametrize(
    ("session", "tools", "expected"),
    [
        (GraphicalSession(True, True), ("wl-copy", "xclip"), ("wl-copy",)),
        (GraphicalSession(False, True), ("wl-copy", "xclip"), ("xclip", "-selection", "clipboard")),
        (GraphicalSession(False, True), ("xsel",), ("xsel", "--clipboard", "--input")),
        (GraphicalSession(True, False), ("xclip",), None),
    ],
)
def test_the_tool_follows_the_session(
    session: GraphicalSession, tools: tuple[str, ...], expected: tuple[str, ...] | None
) -> None:
    if expected is None:
        with pytest.raises(CtxoptError):
            find_clipboard(session, which=only(*tools), platform="linux")
        return
    assert find_clipboard(session, which=only(*tools), platform="linux").argv == expected


def test_macos_uses_pbcopy_without_a_display() -> None:
    assert find_clipboard(HEADLESS, which=only("pbcopy"), platform="darwin").argv == ("pbcopy",)


def fake_tool(folder: Path, body: str) -> ClipboardTool:
    script = folder / "fake-copy"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    os.chmod(script, 0o755)
    return ClipboardTool("fake-copy", (str(script),))


def test_the_text_reaches_the_tool_byte_for_byte(tmp_path: Path) -> None:
    received = tmp_path / "received"
    text = "# Context\n\nnon-ASCII: größe → 名前\n```py\nx = '<&>'\n```\n"
    copy_to_clipboard(fake_tool(tmp_path, f'cat > "{received}"'), text)
    assert received.read_bytes() == text.encode("utf-8")


def test_a_failing_tool_is_one_line_with_its_first_message(tmp_path: Path) -> None:
    tool = fake_tool(tmp_path, 'echo "Error: Can\'t open display: :99" >&2\necho more >&2\nexit 1')
    with pytest.raises(CtxoptError) as raised:
        copy_to_clipboard(tool, "prompt")
    assert str(raised.value) == "--copy: fake-copy failed (exit 1): Error: Can't open display: :99"


def test_a_tool_left_running_in_the_background_does_not_hold_ctxopt(tmp_path: Path) -> None:
    # xclip forks and keeps serving the selection with the parent's stdout and stderr
    received = tmp_path / "received"
    tool = fake_tool(tmp_path, f'cat > "{received}"\n(sleep 20) &\nexit 0')
    copy_to_clipboard(tool, "prompt")
    assert received.read_text(encoding="utf-8") == "prompt"
