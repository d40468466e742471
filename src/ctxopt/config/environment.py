"""The process environment beyond the CTXOPT_<SETTING> variables (config/settings.py reads
those): the few other variables ctxopt reads, and the defaults it gives libraries.

Hugging Face and Lance read their logging and offline switches from the environment
when they are imported, so `quiet_library` sets them (only when the user has not)
right before such an import; it is the one place where ctxopt writes os.environ,
and it never runs at import time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

MODELS_FILE = "CTXOPT_MODELS_FILE"  # read as Settings.models_file, named in messages
DEBUG = "CTXOPT_DEBUG"
REPOS_DIR = "CTXOPT_REPOS_DIR"  # where clones of repository URLs live
STORAGE_ENDPOINT = "CTXOPT_STORAGE_ENDPOINT"  # an S3-compatible server, or a GCS/Azure emulator
DB_VARIABLE = "CTXOPT_DB"  # read as Settings.db; named here for the background client
BACKGROUND = "CTXOPT_BACKGROUND"  # 0/off: query and pack never use a background server
BACKGROUND_IDLE = "CTXOPT_BACKGROUND_IDLE"  # seconds a background server waits for a call
# the CTXOPT_ variables that are not CTXOPT_<SETTING> (an unknown one is warned about)
OTHER_VARIABLES = (DEBUG, REPOS_DIR, STORAGE_ENDPOINT, BACKGROUND, BACKGROUND_IDLE)

HUGGING_FACE = {
    "HF_HUB_OFFLINE": "1",  # nothing is downloaded at run time
    "TRANSFORMERS_OFFLINE": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TOKENIZERS_PARALLELISM": "false",
}
LANCE = {"LANCE_LOG": "error", "RUST_LOG": "error"}  # no Rust-side warnings on stderr
GIT = {"GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}  # read-only runs, messages in English
# Cloning and fetching: messages in English, and never a prompt for a user name or password
# (an https URL that needs credentials fails with git's message instead of waiting on a tty).
GIT_REMOTE = {"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}


def child_environment(overrides: Mapping[str, str]) -> dict[str, str]:
    """The environment for a child process: this one's, with overrides on top."""
    return {**os.environ, **overrides}


def quiet_library(defaults: Mapping[str, str]) -> None:
    """Give a library its environment defaults before it is imported; user values win."""
    for name, value in defaults.items():
        os.environ.setdefault(name, value)


def debugging(env: Mapping[str, str] | None = None) -> bool:
    """Whether $CTXOPT_DEBUG asks for tracebacks of internal errors."""
    return bool((os.environ if env is None else env).get(DEBUG))


def no_color(env: Mapping[str, str] | None = None) -> bool:
    """Whether $NO_COLOR is set (https://no-color.org)."""
    return bool((os.environ if env is None else env).get("NO_COLOR"))


OFF_VALUES = ("0", "off", "false", "no")
DEFAULT_IDLE_SECONDS = 900.0


def background_wanted(env: Mapping[str, str] | None = None) -> bool:
    """Whether `query` and `pack` may use (and start) a background server: yes unless
    $CTXOPT_BACKGROUND turns it off; in CI ($CI set) only when $CTXOPT_BACKGROUND asks."""
    env = os.environ if env is None else env
    value = env.get(BACKGROUND, "").strip().lower()
    if value:
        return value not in OFF_VALUES
    return env.get("CI", "").strip().lower() in ("", *OFF_VALUES)


ON_VALUES = ("1", "on", "true", "yes")


def odd_background_values(env: Mapping[str, str]) -> list[str]:
    """Warnings for values of the background variables that are read as something else
    (the client reads them before anything can be said: settings say it afterwards)."""
    warnings = []
    switch = env.get(BACKGROUND, "").strip().lower()
    if switch and switch not in (*ON_VALUES, *OFF_VALUES):
        warnings.append(
            f"env: {BACKGROUND}={env[BACKGROUND]!r} is read as on; give 1 or 0 (on/off)"
        )
    idle = env.get(BACKGROUND_IDLE, "").strip()
    if idle and background_idle_seconds({BACKGROUND_IDLE: idle}) != _number(idle):
        warnings.append(
            f"env: {BACKGROUND_IDLE}={idle!r} is not a number of seconds above 0; "
            f"{DEFAULT_IDLE_SECONDS:g} is used"
        )
    return warnings


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def background_idle_seconds(env: Mapping[str, str] | None = None) -> float:
    """How long a background server waits for its next call before it exits."""
    value = (os.environ if env is None else env).get(BACKGROUND_IDLE, "")
    try:
        seconds = float(value)
    except ValueError:
        return DEFAULT_IDLE_SECONDS
    return seconds if seconds > 0 else DEFAULT_IDLE_SECONDS


PIPED_WIDTH = 160  # columns of tables written to a pipe or file when COLUMNS is not set


def piped_width(env: Mapping[str, str] | None = None) -> int | None:
    """The width for tables on a stdout that is not a terminal: None when COLUMNS is set (rich
    reads it), else PIPED_WIDTH, so a report saved to a file is not cut to 80 columns."""
    return None if (os.environ if env is None else env).get("COLUMNS") else PIPED_WIDTH


def clone_cache(env: Mapping[str, str] | None = None) -> Path:
    """Where clones of repository URLs live: $CTXOPT_REPOS_DIR, else `repos` in the user cache
    folder (platformdirs)."""
    value = (os.environ if env is None else env).get(REPOS_DIR)
    if value:
        return Path(value).expanduser().resolve()
    from ctxopt.config.paths import user_cache

    return user_cache() / "repos"


@dataclass(frozen=True)
class GraphicalSession:
    """Which display servers a clipboard tool could talk to."""

    wayland: bool  # $WAYLAND_DISPLAY is set
    x11: bool  # $DISPLAY is set


def graphical_session(env: Mapping[str, str] | None = None) -> GraphicalSession:
    """The graphical session this process runs in, if any (none on a headless machine)."""
    env = os.environ if env is None else env
    return GraphicalSession(wayland=bool(env.get("WAYLAND_DISPLAY")), x11=bool(env.get("DISPLAY")))


# Object storage (an index at s3://, gs:// or az://).  Lance reads each cloud's usual
# variables itself (AWS_PROFILE, GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_ACCOUNT_NAME,
# ...); ctxopt passes the endpoint override and the AWS keys and region explicitly, so the
# same values reach every table, the commit marker and the lock.
ENDPOINT_VARIABLES = {
    "s3": (STORAGE_ENDPOINT, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
    "gs": (STORAGE_ENDPOINT,),
    "az": (STORAGE_ENDPOINT,),
}
ENDPOINT_OPTION = {"s3": "aws_endpoint", "gs": "google_base_url", "az": "azure_storage_endpoint"}
AWS_OPTIONS = {
    "AWS_ACCESS_KEY_ID": "aws_access_key_id",
    "AWS_SECRET_ACCESS_KEY": "aws_secret_access_key",
    "AWS_SESSION_TOKEN": "aws_session_token",
}
AWS_REGION_VARIABLES = ("AWS_REGION", "AWS_DEFAULT_REGION")
DEFAULT_REGION = "us-east-1"  # S3-compatible servers want a region; most accept any


def storage_endpoint(scheme: str, env: Mapping[str, str] | None = None) -> str | None:
    """The endpoint override for an object store (None: the cloud's own), and the variable
    it came from is the first of ENDPOINT_VARIABLES[scheme] that is set."""
    env = os.environ if env is None else env
    return next((env[v] for v in ENDPOINT_VARIABLES.get(scheme, ()) if env.get(v)), None)


def storage_options(uri: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Lance's storage_options for an object-store URI, from the environment."""
    env = os.environ if env is None else env
    scheme = uri.partition("://")[0].lower()
    options: dict[str, str] = {}
    endpoint = storage_endpoint(scheme, env)
    if endpoint:
        options[ENDPOINT_OPTION[scheme]] = endpoint
        if endpoint.lower().startswith("http://"):
            options["allow_http"] = "true"
    if scheme == "s3":
        options.update({key: env[name] for name, key in AWS_OPTIONS.items() if env.get(name)})
        region = next((env[v] for v in AWS_REGION_VARIABLES if env.get(v)), None)
        if region or endpoint:
            options["aws_region"] = region or DEFAULT_REGION
    return options
