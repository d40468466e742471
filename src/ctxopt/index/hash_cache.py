"""Content hashes of work-tree files, kept with the stat signature they were taken at.

A checkout that reads a shared index on object storage has other mtimes than the checkout
that built it, so every file looks touched to the refresh check and used to be read and
hashed on every query.  The hashes are kept in the checkout's local folder
(snapshot.shared_folder): a file whose signature (snapshot.signature: mode, size, mtime,
ctime, inode) is the one its hash was taken at is not read again.  The signature is taken
before the file is read, so a file changed meanwhile differs from it next time.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from ctxopt.index.file_jobs import file_hash
from ctxopt.index.snapshot import Signature, signature
from ctxopt.types import SourceFile

CACHE_NAME = "hashes.json"
CACHE_FORMAT = 1


class HashCache:
    """file_hash with a memory of (signature, hash) per path, loaded from and saved to folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._known = _load(folder / CACHE_NAME)
        self._used: dict[str, tuple[Signature, str]] = {}

    def hash(self, source: SourceFile) -> str:
        """The content hash of source, read only when its signature is not the cached one."""
        now = signature(source.abs_path)
        known = self._known.get(source.path)
        if now is not None and known is not None and known[0] == now:
            value = known[1]
        else:
            value = file_hash(source.abs_path)
        if now is not None:
            self._used[source.path] = (now, value)
        return value

    def save(self) -> None:
        """Keep the hashes used this time (best effort: a read-only cache only costs reads)."""
        if self._used == self._known:
            return
        payload = {
            "format": CACHE_FORMAT,
            "hashes": {p: [list(s) if s else None, h] for p, (s, h) in self._used.items()},
        }
        temporary = self.folder / f".{CACHE_NAME}.{os.getpid()}.tmp"
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(payload), encoding="utf-8")
            os.replace(temporary, self.folder / CACHE_NAME)


def _load(file: Path) -> dict[str, tuple[Signature, str]]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if data["format"] != CACHE_FORMAT:
            return {}
        return {
            path: (tuple(sig) if sig is not None else None, str(value))
            for path, (sig, value) in data["hashes"].items()
        }
    except (OSError, ValueError, KeyError, TypeError):
        return {}
