"""Test isolation: no colour, fixed width, a temporary config home; shared cache for models."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from s3server import S3Server, running_s3_server


def pytest_configure(config: pytest.Config) -> None:
    """Tests send Ctrl-C (SIGINT) to the ctxopt processes they start.  A suite started as a
    background job of a shell without job control inherits SIGINT ignored, and so would every
    process it starts (Python keeps an ignored SIGINT ignored): handle it here, so that each
    child starts with the default action and Python's own KeyboardInterrupt."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
    for name in list(__import__("os").environ):
        if name.startswith("CTXOPT_") and name not in ("CTXOPT_CACHE_DIR", "CTXOPT_UPDATE_GOLDEN"):
            monkeypatch.delenv(name, raising=False)
    # `ctxopt` runs in-process in tests unless a test starts a background server itself.
    monkeypatch.setenv("CTXOPT_BACKGROUND", "0")


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    """A real S3-compatible server (moto) on 127.0.0.1, one per test session."""
    with running_s3_server(tmp_path_factory.mktemp("moto") / "moto.log") as server:
        yield server


@pytest.fixture
def s3_env(
    s3_server: S3Server, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    """This process's environment pointed at the S3 server (for in-process tests); the
    same variables, returned, go to CLI subprocesses."""
    env = s3_server.env(tmp_path_factory.mktemp("aws-home"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env
