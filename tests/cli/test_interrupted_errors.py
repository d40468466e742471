"""An error a library made of Ctrl-C ends the command as interrupted (exit 130), one line."""

from __future__ import annotations

import sys

import pytest

import ctxopt.cli as cli
from ctxopt import interrupts
from ctxopt.errors import IndexCorruptError, InterruptedRun


def _exit_of(monkeypatch: pytest.MonkeyPatch, error: Exception, *, interrupted: bool) -> int:
    def command(argv: list[str]) -> int:
        if interrupted:
            interrupts.note()
        raise error

    monkeypatch.setattr(cli, "_run", command)
    monkeypatch.setattr(sys, "argv", ["ctxopt", "query", "x"])
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    return int(stopped.value.code or 0)


@pytest.mark.parametrize(
    "error", [IndexCorruptError("the index at x is damaged (y)"), ValueError("External error")]
)
def test_an_error_after_ctrl_c_is_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error: Exception
) -> None:
    assert _exit_of(monkeypatch, error, interrupted=True) == 130
    assert capsys.readouterr().err.strip() == "ctxopt: error: interrupted"


def test_the_same_errors_without_ctrl_c_are_reported_as_they_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _exit_of(
        monkeypatch, IndexCorruptError("the index at x is damaged (y)"), interrupted=False
    )
    assert code == IndexCorruptError.exit_code and code != 130
    assert "is damaged" in capsys.readouterr().err
    assert _exit_of(monkeypatch, ValueError("External error"), interrupted=False) == 1
    assert "internal error: ValueError" in capsys.readouterr().err


def test_an_interrupted_run_keeps_its_account_of_the_index(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    error = InterruptedRun("interrupted: the index at x is as the last complete run left it")
    assert _exit_of(monkeypatch, error, interrupted=True) == 130
    assert capsys.readouterr().err.strip() == f"ctxopt: error: {error}"
