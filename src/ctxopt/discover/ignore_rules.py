"""Ignore files (.gitignore, .ctxoptignore) applied the way git applies them.

Git's rule: the last matching pattern decides, deeper files after shallower ones.
`discover` uses `IgnoreChain` while walking a tree outside git, and `OwnIgnoreRules`
to apply .ctxoptignore files to git's own listing.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pathspec import GitIgnoreSpec

IGNORE_FILE = ".gitignore"
CTXOPT_IGNORE_FILE = ".ctxoptignore"

# (ignores, match, ends with "/**", ends with "/": it names folders only)
Pattern = tuple[bool, Callable[[str], object], bool, bool]


@dataclass(frozen=True)
class IgnoreChain:
    """Ignore files of the folders above a path, outermost first.

    Patterns are matched one by one (not with GitIgnoreSpec.check_file, whose
    priorities differ from git's for folders once folders are pruned).
    """

    files: tuple[tuple[str, tuple[Pattern, ...]], ...] = ()

    def extend(self, prefix: str, patterns: tuple[Pattern, ...]) -> IgnoreChain:
        return IgnoreChain((*self.files, (prefix, patterns))) if patterns else self

    def ignores(self, rel: str, is_dir: bool = False) -> bool:
        """True when the last matching pattern ignores rel (a folder when is_dir)."""
        for prefix, patterns in reversed(self.files):
            path = rel[len(prefix) :]
            for ignores, match, inside_only, folders_only in patterns:
                if folders_only and not is_dir:  # `!*/` re-includes folders, not their files
                    continue
                # "docs/**" covers what is inside docs, not the folder docs itself
                probe = path if not is_dir or inside_only else path + "/"
                if match(probe) is not None:
                    return ignores
        return False


def load_patterns(path: str) -> tuple[Pattern, ...]:
    """The patterns of an ignore file, last first; () when unreadable or empty."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return ()
    patterns = GitIgnoreSpec.from_lines(lines).patterns
    return tuple(
        (bool(p.include), p.match_file, str(p.pattern).endswith("/**"), _folders_only(p.pattern))
        for p in reversed(patterns)
        if p.include is not None
    )


def _folders_only(pattern: object) -> bool:
    """A pattern ending in `/` (not `/**`) matches folders only, as git reads it."""
    return str(pattern).endswith("/")


class OwnIgnoreRules:
    """.ctxoptignore files applied to git's listing, with folder results cached."""

    def __init__(self, root: str, paths: Iterable[str]) -> None:
        self.root = root
        self.folders = {
            posixpath.dirname(p) for p in paths if posixpath.basename(p) == CTXOPT_IGNORE_FILE
        }
        self.cache: dict[str, tuple[IgnoreChain, bool]] = {}

    def folder(self, rel_dir: str) -> tuple[IgnoreChain, bool]:
        """(rules that apply inside rel_dir, whether rel_dir itself is ignored)."""
        if rel_dir in self.cache:
            return self.cache[rel_dir]
        if rel_dir:
            rules, ignored = self.folder(posixpath.dirname(rel_dir))
            ignored = ignored or rules.ignores(rel_dir, is_dir=True)
        else:
            rules, ignored = IgnoreChain(), False
        if rel_dir in self.folders:
            prefix = f"{rel_dir}/" if rel_dir else ""
            path = f"{self.root}/{prefix}{CTXOPT_IGNORE_FILE}"
            rules = rules.extend(prefix, load_patterns(path))
        self.cache[rel_dir] = (rules, ignored)
        return rules, ignored

    def ignores(self, rel: str) -> bool:
        if not self.folders:
            return False
        rules, ignored = self.folder(posixpath.dirname(rel))
        return ignored or rules.ignores(rel)
