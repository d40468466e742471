"""Which folder an index belongs to, and which folder may hold one.

An index kept outside its repository (`--db DIR`) serves the folder that built it, never
another one that names the same folder.

Two repositories indexed into one `--db` used to replace each other's files run by run, and
a pack with `--no-refresh` for one showed the other's code under its name.  The folder is
recorded in the index's meta (`repo_root`); an index in the repository's own `.ctxopt/`
moves with it, and one on object storage is shared by checkouts at any path, so neither is
checked.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from ctxopt.config.paths import INDEX_DIR, DbLocation, is_object_store
from ctxopt.errors import IndexMismatchError, UsageError
from ctxopt.types import IndexMeta


def check_owner(meta: IndexMeta, db: DbLocation, root: Path) -> None:
    """Raise IndexMismatchError when the local index at db was built from another folder."""
    if is_object_store(db) or not meta.repo_root or Path(db) == root / INDEX_DIR:
        return
    if Path(meta.repo_root) != root:
        rebuild = shlex.join(["ctxopt", "index", str(root), "--full", "--db", str(db)])
        raise IndexMismatchError(
            f"the index at {db} belongs to {meta.repo_root}, not {root}; give each repository "
            f"its own --db, or rebuild it for this folder with `{rebuild}`"
        )


_OURS = (".gitignore", "index.lock")  # what a first run writes before its first table


def check_index_folder(db: DbLocation, root: Path) -> None:
    """Refuse a local --db that is the repository itself or a folder of the repository's
    files (`--db src`): the index would leave those files out of itself, or read its own."""
    if is_object_store(db):
        return
    folder = Path(db)
    if folder == root:
        raise UsageError(
            f"--db {folder} is the repository folder itself; give the index a folder of its "
            f"own (the default is {root / INDEX_DIR})"
        )
    if root.is_relative_to(folder):
        raise UsageError(
            f"--db {folder} holds the repository {root}; give the index a folder of its own "
            f"(the default is {root / INDEX_DIR})"
        )
    if not folder.is_relative_to(root):
        return  # the user's own folder elsewhere: the index may live among other files
    try:
        with os.scandir(folder) as listing:
            names = [entry.name for entry in listing]
    except OSError:  # not there yet (it is created), or not a folder (creating it says so)
        return
    if any(name == "committed.json" or name.endswith(".lance") for name in names):
        return  # an index, complete or not
    others = sorted(name for name in names if name not in _OURS)
    if others:
        raise UsageError(
            f"--db {folder} holds other files ({others[0]}{', ...' if len(others) > 1 else ''}), "
            "not an index; give the index an empty or new folder"
        )
