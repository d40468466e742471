"""Git's listing of a work tree, as discovery starts from it (light: no ignore rules, no
language tables), for the freshness snapshot's stat-level check."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ctxopt.config.paths import INDEX_DIR, resolve_root
from ctxopt.discover.git import listed_files, work_tree


def git_listing(
    root: Path, extra_ignored_dirs: Sequence[Path] = ()
) -> tuple[Path, list[str]] | None:
    """The git top folder and git's listing that `walk.discover` starts from (the same
    arguments give the same listing); None outside git or in a folder git ignores."""
    top_root = resolve_root(root)
    top, paths = raw_listing(top_root, hidden_dirs(top_root, extra_ignored_dirs))
    return None if top is None or paths is None else (top, paths)


def raw_listing(top_root: Path, hidden: Sequence[str]) -> tuple[Path | None, list[str] | None]:
    """git's top folder and its listing of top_root without the index folder and hidden
    folders ("x/" forms); (None, None) outside git or in a folder git ignores."""
    top = work_tree(top_root)
    paths = listed_files(top_root, [INDEX_DIR, *(h.rstrip("/") for h in hidden)]) if top else None
    return top, paths


def hidden_dirs(root: Path, extra: Sequence[Path]) -> tuple[str, ...]:
    """Root-relative "x/" forms of the extra folders that lie strictly inside root."""
    hidden = []
    for folder in extra:
        path = Path(folder).expanduser()
        path = (path if path.is_absolute() else root / path).resolve()
        if path != root and path.is_relative_to(root):
            hidden.append(path.relative_to(root).as_posix() + "/")
    return tuple(hidden)
