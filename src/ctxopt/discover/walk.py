"""Files of a repository worth indexing: git-aware listing, ignore rules and skip filters.

Inside a git work tree git's own listing is the ground truth; outside git the
tree is walked with every .gitignore applied the way git applies them.  Both
modes then honour .ctxoptignore files and the include/exclude globs, and skip
secret, asset, binary, oversized, minified, generated, lock and vendored files,
submodules and looping or outward symlinks with a reason.
Only a stat and the first 8 KiB of each file are read.  The matching rules live in
`ignore_rules` (ignore files) and `skip_rules` (skip reasons); this module walks.
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pathspec import GitIgnoreSpec

from ctxopt.config.paths import INDEX_DIR, is_utf8, resolve_root, shown_path
from ctxopt.discover.git import git_root, head_commit, last_commit_times
from ctxopt.discover.ignore_rules import (
    CTXOPT_IGNORE_FILE,
    IGNORE_FILE,
    IgnoreChain,
    OwnIgnoreRules,
    load_patterns,
)
from ctxopt.discover.listing import git_listing, hidden_dirs, raw_listing
from ctxopt.discover.secret_files import is_secret_file
from ctxopt.discover.skip_rules import (
    OUTPUT_DIRS,
    VCS_DIRS,
    VENDORED_DIRS,
    content_reason,
    name_reason,
    vendored_dir,
)
from ctxopt.errors import UsageError
from ctxopt.languages import detect_language, is_special_filename
from ctxopt.types import Discovery, SkippedFile, SourceFile

__all__ = ["discover", "git_listing", "git_root", "head_commit", "last_commit_times"]

HEAD_BYTES = 8192
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)  # never block on a FIFO
_LANGUAGES: dict[str, str] = {}

_DOT_SLASH = re.compile(r"^(?:\./+)+")  # a glob's leading `./`, as shells complete it


class PathMatcher(Protocol):
    def match_file(self, file: str) -> bool: ...


@dataclass(frozen=True)
class _AllBut:
    """Every path but those `excluded` matches (the globs of a select with their `!` flipped)."""

    excluded: GitIgnoreSpec

    def match_file(self, file: str) -> bool:
        return not self.excluded.match_file(file)


@dataclass
class _Collector:
    """Decides per path whether it is kept, skipped (with a reason) or silently left out."""

    root: str
    max_file_bytes: int
    include: PathMatcher | None
    exclude: PathMatcher | None
    hidden: tuple[str, ...]  # root-relative folders never listed ("x/" form)
    skipped_dirs: frozenset[str] = VENDORED_DIRS  # folder names skipped as `vendored`
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    vendored: set[str] = field(default_factory=set)
    # links to files inside the root: (link's rel, its abs path, extension, target's rel)
    links: list[tuple[str, str, str, str]] = field(default_factory=list)

    def is_hidden_dir(self, rel: str) -> bool:
        return posixpath.basename(rel) == INDEX_DIR or f"{rel}/" in self.hidden

    def selected(self, rel: str, dirs: list[str]) -> bool:
        if INDEX_DIR in dirs or (self.hidden and rel.startswith(self.hidden)):
            return False
        if self.include is not None and not self.include.match_file(rel):
            return False
        return self.exclude is None or not self.exclude.match_file(rel)

    def consider(self, rel: str) -> None:
        """Keep or skip the file at rel if it passes the globs; files gone from disk drop out."""
        dirs = rel.split("/")
        name = dirs.pop().lower()
        if not self.selected(rel, dirs) or not VCS_DIRS.isdisjoint(dirs):
            return
        if not is_utf8(rel):  # no tokenizer or table takes it; shown as git shows it
            self.skipped.append(SkippedFile(shown_path(rel), "name_not_utf8"))
            return
        if not self.skipped_dirs.isdisjoint(dirs):
            self.vendored.add(vendored_dir(dirs, self.skipped_dirs))
            return
        extension = _extension(name)
        abs_path = f"{self.root}/{rel}"
        reason = name_reason(name, extension)
        if reason:
            if os.path.isfile(abs_path):
                self.skipped.append(SkippedFile(rel, reason))
        elif _NOFOLLOW or not os.path.islink(abs_path):
            self.inspect(rel, abs_path, extension, _OPEN_FLAGS | _NOFOLLOW)
        else:
            self.follow(rel, abs_path, extension)

    def nested_repository(self, rel: str) -> None:
        """A submodule or a repository inside this one: its files are its own, skipped with
        one entry (index it with its own `ctxopt index`)."""
        dirs = rel.split("/")[:-1]
        if self.selected(rel, dirs) and self.skipped_dirs.isdisjoint(dirs):
            self.skipped.append(SkippedFile(f"{rel}/", "submodule"))

    def inspect(self, rel: str, abs_path: str, extension: str, flags: int) -> None:
        """Open once (O_NOFOLLOW unless following a link), fstat, sniff the head."""
        try:
            fd = os.open(abs_path, flags)
        except OSError as exc:
            if exc.errno == errno.ELOOP and flags & _NOFOLLOW:
                self.follow(rel, abs_path, extension)
            elif isinstance(exc, PermissionError):
                self.skipped.append(SkippedFile(rel, "unreadable"))
            return  # otherwise gone from disk: tracked but deleted
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):  # git lists a submodule as one entry
                self.nested_repository(rel)
                return
            if not stat.S_ISREG(info.st_mode):
                return
            reason = None
            if info.st_size > self.max_file_bytes:
                reason = "too_large"
            elif info.st_size > 0:
                reason = content_reason(extension, os.read(fd, HEAD_BYTES))
        except OSError:
            reason = "unreadable"
        finally:
            os.close(fd)
        if reason:
            self.skipped.append(SkippedFile(rel, reason))
            return
        language = _language(rel, extension)
        # the last change to the file, as git's stat check sees it: a tool that puts the old
        # mtime back (rsync -t, an archive, `touch -d`) still moves ctime
        changed = max(info.st_mtime_ns, info.st_ctime_ns)
        self.files.append(SourceFile(rel, abs_path, info.st_size, changed, language))

    def follow(self, rel: str, abs_path: str, extension: str) -> None:
        """A symlink: skipped when broken, looping or pointing outside root, else its target
        is read.  A link to a folder above it is a loop; other folder links are left out
        (git lists the files inside anyway)."""
        try:
            target = os.path.realpath(abs_path, strict=True)
        except OSError as exc:
            reason = "symlink_loop" if exc.errno == errno.ELOOP else "broken_symlink"
            self.skipped.append(SkippedFile(rel, reason))
            return
        if target != self.root and not target.startswith(self.root + os.sep):
            self.skipped.append(SkippedFile(rel, "symlink_outside"))
        elif os.path.isdir(target):
            if abs_path.startswith(target + os.sep):
                self.skipped.append(SkippedFile(rel, "symlink_loop"))
        elif is_secret_file(*_name_and_extension(target)):
            self.skipped.append(SkippedFile(rel, "secret"))  # "notes.txt -> .env"
        elif os.path.isfile(target):
            target_rel = os.path.relpath(target, self.root).replace(os.sep, "/")
            self.links.append((rel, abs_path, extension, target_rel))

    def resolve_links(self) -> None:
        """A link to a file indexed under its own path is skipped (one copy of the code, under
        its real name); a link to a file left out (ignored, excluded) is read as the file."""
        indexed = {f.path for f in self.files}
        for rel, abs_path, extension, target_rel in self.links:
            if target_rel in indexed:
                self.skipped.append(SkippedFile(rel, "symlink_duplicate"))
            else:
                self.inspect(rel, abs_path, extension, _OPEN_FLAGS)
        self.links = []

    def result(self, top: Path | None) -> Discovery:
        self.resolve_links()
        skipped = self.skipped + [SkippedFile(d, "vendored") for d in self.vendored]
        return Discovery(
            files=tuple(sorted(self.files, key=lambda f: f.path)),
            skipped=tuple(sorted(skipped, key=lambda s: s.path)),
            git_root=str(top) if top else None,
        )


def _name_and_extension(path: str) -> tuple[str, str]:
    name = os.path.basename(path).lower()
    return name, _extension(name)


def _extension(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


def _language(rel: str, extension: str) -> str:
    """detect_language, memoised by special file name, else by extension."""
    name = rel.rpartition("/")[2]
    key = name if is_special_filename(name) else extension
    language = _LANGUAGES.get(key)
    if language is None:
        language = _LANGUAGES[key] = detect_language(name)
    return language


def _walk(collector: _Collector) -> None:
    """Outside git: walk the tree applying every .gitignore and .ctxoptignore, pruning early."""
    stack: list[tuple[str, IgnoreChain, IgnoreChain]] = [("", IgnoreChain(), IgnoreChain())]
    while stack:
        rel_dir, git_rules, own_rules = stack.pop()
        folder = f"{collector.root}/{rel_dir}" if rel_dir else collector.root
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            if rel_dir:
                collector.skipped.append(SkippedFile(f"{rel_dir}/", "unreadable"))
            continue
        prefix = f"{rel_dir}/" if rel_dir else ""
        names = {entry.name for entry in entries}
        if IGNORE_FILE in names:
            git_rules = git_rules.extend(prefix, load_patterns(f"{folder}/{IGNORE_FILE}"))
        if CTXOPT_IGNORE_FILE in names:
            own_rules = own_rules.extend(prefix, load_patterns(f"{folder}/{CTXOPT_IGNORE_FILE}"))
        for entry in entries:
            rel = prefix + entry.name
            is_dir = entry.is_dir(follow_symlinks=False)
            if git_rules.ignores(rel, is_dir) or own_rules.ignores(rel, is_dir):
                continue
            if not is_dir:
                collector.consider(rel)
            elif entry.name in VCS_DIRS:
                continue
            elif entry.name in collector.skipped_dirs and not collector.is_hidden_dir(rel):
                collector.vendored.add(f"{rel}/")
            elif not collector.is_hidden_dir(rel):
                stack.append((rel, git_rules, own_rules))


def _from_git(collector: _Collector, paths: list[str]) -> None:
    """Inside git: filter git's listing by .ctxoptignore, globs and skip rules."""
    own = OwnIgnoreRules(collector.root, paths)
    for rel in paths:
        if rel.endswith("/"):  # an untracked repository inside this one
            collector.nested_repository(rel.rstrip("/"))
        elif not own.ignores(rel):
            collector.consider(rel)


def glob_spec(patterns: Sequence[str], *, select: bool = False) -> PathMatcher | None:
    """Globs in gitignore syntax (`src/**`, `*.py`, `tests`), as --include, --exclude and
    --glob take them; None for no patterns.  A leading `./` is the repository's top (`/`),
    as a shell's completion writes it; select (--include, --glob: only matching paths): a
    first pattern that is a negation (`!tests/**`) keeps every other path, as in ripgrep."""
    if not patterns:
        return None
    lines = [_from_top(p) for p in patterns]
    if select and lines[0].startswith("!"):
        flipped = [_flipped(line) for line in lines]
        given = dict(zip(flipped, patterns, strict=True))
        return _AllBut(_readable(GitIgnoreSpec.from_lines(flipped), given))
    return _readable(GitIgnoreSpec.from_lines(lines), dict(zip(lines, patterns, strict=True)))


def checked_globs(patterns: Sequence[str]) -> tuple[str, ...]:
    """The patterns, or a UsageError naming one that matches nothing because it cannot be
    read (`[`, `src/[a-`: an unclosed bracket), rather than an empty answer."""
    if patterns:
        _readable(GitIgnoreSpec.from_lines(list(patterns)), {})
    return tuple(patterns)


def _readable(spec: GitIgnoreSpec, given: dict[str, str]) -> GitIgnoreSpec:
    """spec, or a UsageError for a pattern of it that compiled to nothing and is no comment,
    named as given (the user's pattern each compiled line came from; itself if absent)."""
    for compiled in spec.patterns:
        text = str(getattr(compiled, "pattern", ""))
        if compiled.regex is None and not text.lstrip().startswith("#"):
            raise UsageError(
                f"the glob {given.get(text, text)!r} is not a valid pattern (an unclosed '[' "
                "?); escape a literal bracket as '\\['"
            )
    return spec


def _flipped(pattern: str) -> str:
    return pattern[1:] if pattern.startswith("!") else "!" + pattern


def _from_top(pattern: str) -> str:
    negated = pattern.startswith("!")
    body = pattern[1:] if negated else pattern
    rest = _DOT_SLASH.sub("", body)
    if rest != body and rest:  # `./src/**`, `././src`: `/src/**`, `/src`
        body = "/" + rest
    return ("!" if negated else "") + body


def discover(
    root: Path,
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    max_file_bytes: int = 1_048_576,
    extra_ignored_dirs: Sequence[Path] = (),
) -> Discovery:
    """The files under root to index, and those skipped with a reason, sorted by path."""
    top_root = resolve_root(root)
    hidden = hidden_dirs(top_root, extra_ignored_dirs)
    collector = _Collector(
        root=str(top_root),
        max_file_bytes=max_file_bytes,
        include=glob_spec(include, select=True),
        exclude=glob_spec(exclude),
        hidden=hidden,
    )
    top, paths = raw_listing(top_root, hidden)
    if paths is None:
        collector.skipped_dirs = VENDORED_DIRS | OUTPUT_DIRS
        _walk(collector)
        return collector.result(None)
    _from_git(collector, paths)
    return collector.result(top)
