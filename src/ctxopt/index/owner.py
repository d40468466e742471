"""Which folder an index belongs to: an index kept outside its repository (`--db DIR`)
serves the folder that built it, never another one that names the same folder.

Two repositories indexed into one `--db` used to replace each other's files run by run, and
a pack with `--no-refresh` for one showed the other's code under its name.  The folder is
recorded in the index's meta (`repo_root`); an index in the repository's own `.ctxopt/`
moves with it, and one on object storage is shared by checkouts at any path, so neither is
checked.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ctxopt.config.paths import INDEX_DIR, DbLocation, is_object_store
from ctxopt.errors import IndexMismatchError
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
