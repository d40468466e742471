"""Where a background server listens, and what a server must share with its callers.

One server serves one user with one Python, one copy of ctxopt's code (an upgrade or an
edit of the source starts a new one) and the environment variables read when libraries
load (model caches, offline switches, locale); other variables travel with each call.
The socket lives in a folder only the user can enter.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import ctxopt

# Variables a server keeps from its start: libraries read them when loaded, or once.
KEPT_PREFIXES = (
    "CTXOPT_",
    "HF_",
    "TRANSFORMERS_",
    "SENTENCE_TRANSFORMERS_",
    "TIKTOKEN_",
    "TOKENIZERS_",
    "LANCE_",
    "RUST_",
    "PYTHON",
    "LC_",
    "OMP_",
    "MKL_",
    "XDG_",
)
KEPT_NAMES = ("LANG", "HOME", "TMPDIR")
NOT_KEPT = ("CTXOPT_BACKGROUND", "CTXOPT_BACKGROUND_IDLE")


@dataclass(frozen=True)
class Address:
    folder: Path
    key: str

    @property
    def socket(self) -> Path:
        return self.folder / f"{self.key}.sock"

    @property
    def lock(self) -> Path:
        return self.folder / f"{self.key}.lock"

    @property
    def log(self) -> Path:
        return self.folder / f"{self.key}.log"


def server_address(env: Mapping[str, str] | None = None) -> Address | None:
    """This process's server address; None where none can be private to the user."""
    env = os.environ if env is None else env
    folder = _private_folder(env)
    if folder is None:
        return None
    return Address(folder, _key(env))


def kept_environment(env: Mapping[str, str]) -> dict[str, str]:
    return {
        name: value
        for name, value in env.items()
        if (name.startswith(KEPT_PREFIXES) or name in KEPT_NAMES) and name not in NOT_KEPT
    }


def _key(env: Mapping[str, str]) -> str:
    digest = hashlib.sha256()
    for part in (
        ctxopt.__version__,
        os.path.realpath(sys.executable),
        sys.version,
        str(_code_stamp()),
        *sorted(f"{k}={v}" for k, v in kept_environment(env).items()),
    ):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()[:20]


def _code_stamp() -> tuple[str, int, int]:
    """The package folder, its Python files and their newest change: an edit of the source
    (an editable install) or an upgrade gives a new stamp."""
    package = Path(ctxopt.__file__).parent
    newest = count = 0
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                count += 1
                newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime_ns)
    return str(package), count, newest


def _private_folder(env: Mapping[str, str]) -> Path | None:
    """$XDG_RUNTIME_DIR/ctxopt, else ctxopt-UID in the temporary folder: made with mode
    0700, and used only while it is the user's own and closed to others."""
    if not hasattr(os, "getuid"):
        return None
    runtime = env.get("XDG_RUNTIME_DIR")
    base = Path(runtime) if runtime else Path(tempfile.gettempdir())
    folder = base / ("ctxopt" if runtime else f"ctxopt-{os.getuid()}")
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    private = stat.S_IMODE(info.st_mode) & 0o077 == 0
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or not private:
        return None
    return folder
