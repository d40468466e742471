"""`ctxopt pack --copy`: a headless machine says so in one line; with a clipboard tool on PATH
(a fake that saves what it reads) the prompt arrives intact and stdout stays empty."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error

pytestmark = pytest.mark.slow

TASK = "save the inventory to a file"
NO_SESSION = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}


def fake_tools(folder: Path, names: tuple[str, ...], body: str) -> dict[str, str]:
    """Scripts named names in folder, and the PATH that finds them first."""
    folder.mkdir(exist_ok=True)
    for name in names:
        script = folder / name
        script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        os.chmod(script, 0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def test_headless_copy_is_one_clear_line(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    path = fake_tools(tmp_path / "bin", ("xclip", "wl-copy"), "cat > /dev/null")
    done = cli("pack", TASK, "--path", str(indexed_repo), "--copy", env={**path, **NO_SESSION})
    assert_one_line_error(done)
    assert done.code == 1
    assert "no clipboard on this machine (no graphical session" in done.err
    assert done.out == ""


@pytest.mark.parametrize(
    ("tool", "session", "argv"),
    [
        ("wl-copy", {"WAYLAND_DISPLAY": "wayland-test", "DISPLAY": ""}, ""),
        ("xclip", {"DISPLAY": ":99", "WAYLAND_DISPLAY": ""}, "-selection clipboard"),
    ],
)
def test_the_prompt_reaches_the_clipboard_intact(
    indexed_repo: Path,
    cli: CliRunner,
    tmp_path: Path,
    tool: str,
    session: dict[str, str],
    argv: str,
) -> None:
    clip, args = tmp_path / "clipboard", tmp_path / "args"
    path = fake_tools(tmp_path / "bin", (tool,), f'echo "$@" > "{args}"\ncat > "{clip}"')
    copied = cli("pack", TASK, "--path", str(indexed_repo), "--copy", env={**path, **session})
    assert copied.code == 0, copied.err
    assert copied.out == ""  # the prompt went to the clipboard, not stdout
    assert f"-> the clipboard ({tool})" in copied.err
    assert args.read_text(encoding="utf-8").strip() == argv
    printed = cli("pack", TASK, "--path", str(indexed_repo))
    assert printed.code == 0, printed.err
    text = clip.read_text(encoding="utf-8")
    assert "def save_inventory" in text
    assert text == printed.out


def test_a_failing_clipboard_tool_is_one_line(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    body = 'echo "Error: Can\'t open display: :99" >&2\nexit 1'
    path = fake_tools(tmp_path / "bin", ("xclip",), body)
    done = cli(
        "pack",
        TASK,
        "--path",
        str(indexed_repo),
        "--copy",
        env={**path, "DISPLAY": ":99", "WAYLAND_DISPLAY": ""},
    )
    assert_one_line_error(done)
    assert done.err.strip().endswith("xclip failed (exit 1): Error: Can't open display: :99")
    assert done.out == ""
