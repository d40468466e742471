"""The repository folder a command works on, found as git finds its work tree, except that
a folder the work tree ignores (a project in a home directory kept as a dotfiles repository)
is no part of it."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from ctxopt.config.paths import INDEX_DIR, resolve_root
from ctxopt.discover.git import ignores


class RootFound(str, Enum):
    """How the repository folder of a command was found."""

    GIVEN = "given"  # --path or the folder argument
    INDEX = "index"  # the nearest folder up holding a .ctxopt index
    GIT = "git"  # the top of the git work tree holding the current folder
    CURRENT = "current"  # neither: the current folder
    IGNORED = "ignored"  # the current folder: the git work tree around it ignores it


@dataclass(frozen=True)
class FoundRoot:
    root: Path
    how: RootFound
    ignored_by: Path | None = None  # the top of the git work tree that ignores root


def find_root(path: Path | None = None, start: Path | None = None) -> FoundRoot:
    """The folder a command works on, found as git finds its work tree.

    A given path wins.  Otherwise, walking up from start (the current folder): the first
    folder holding a `.ctxopt` index, or holding `.git` (the top of the work tree, where
    the walk stops); outside git and with no index up the tree, the current folder.  A
    `.ctxopt` folder with no index in it (a first run that failed before writing a table
    leaves its lock and .gitignore) does not count.  A folder the work tree ignores is no
    part of it: there the current folder is the root, read as a plain folder.  Git is asked
    only below a work tree's top, once.
    """
    if path is not None:
        root = resolve_root(path)
        return FoundRoot(root, RootFound.GIVEN, _ignored_by(root))
    here = resolve_root(start)
    found = _first_up(here)
    if found.how is RootFound.CURRENT:  # no .git up the tree: outside git
        return found
    if found.root == here or not _holds_git(found.root):  # the root either way
        return replace(found, ignored_by=_ignored_by(found.root))
    # a work tree's top above here (its .git or its index): here is part of it unless ignored
    return FoundRoot(here, RootFound.IGNORED, found.root) if ignores(here) else found


def indexed_repository_around(found: FoundRoot) -> Path | None:
    """The git work tree that ignores found's folder when that work tree has an index of its
    own (a query in a build/ folder of an indexed repository reads the folder on its own)."""
    top = found.ignored_by
    return top if top is not None and _holds_index(top / INDEX_DIR) else None


def _first_up(here: Path) -> FoundRoot:
    """The first folder from here up holding an index or `.git`; else here, CURRENT."""
    for folder in (here, *here.parents):
        if _holds_index(folder / INDEX_DIR):
            return FoundRoot(folder, RootFound.INDEX)
        if _holds_git(folder):
            return FoundRoot(folder, RootFound.GIT)
    return FoundRoot(here, RootFound.CURRENT)


def _ignored_by(folder: Path) -> Path | None:
    """The top of the git work tree holding folder when that work tree ignores it; None
    outside git, at a top, and when it does not (git is asked only in the last case)."""
    top = next((f for f in (folder, *folder.parents) if _holds_git(f)), None)
    if top is None or top == folder:
        return None
    return top if ignores(folder) else None


def _holds_git(folder: Path) -> bool:
    return (folder / ".git").exists()


def _holds_index(folder: Path) -> bool:
    """Whether folder holds an index, complete or not: its commit marker or a table."""
    try:
        with os.scandir(folder) as entries:
            return any(e.name == "committed.json" or e.name.endswith(".lance") for e in entries)
    except OSError:  # missing, not a folder, unreadable
        return False
