"""Building Settings from a command's flags (flags win over every other layer)."""

from __future__ import annotations

from pathlib import Path

from ctxopt.config.paths import resolve_root
from ctxopt.config.settings import Settings, load_settings


def settings_from_flags(path: Path | None, **flags: object) -> Settings:
    """Settings for the repository at path with the given flag values (None = not given)."""
    root = resolve_root(path)
    return load_settings(root, {k: v for k, v in flags.items() if v is not None})
