"""Mine benchmark cases from a repository's history.

A case is one commit: the task is its message, the gold is the set of source files it
modified and the old-side (pre-commit) line numbers of every hunk.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from benchlib.diffparse import FileHunks, parse_unified_zero
from benchlib.gitutil import git, git_ok
from benchlib.paths import is_code, is_doc, is_excluded

MAX_SOURCE_FILES = 10
MIN_WORDS = 4

_VERSION_PATTERNS = (
    r"^v?\d+(\.\d+)+\b",  # "1.2.3", "v2.0"
    r"^(chore\(release\)|chore: release|release|releasing|bump)\b",
    r"^prepare (for )?(the )?(next )?(release|version|v?\d)",
    r"^(update|set|change) (the )?version\b",
    r"\bbump(ed|s|ing)? (the )?(version|dependencies|deps)\b",
    r"\bversion bump\b",
    r"\bto (version )?v?\d+\.\d+(\.\d+)?\s*$",
)
_VERSION_RE = re.compile("|".join(_VERSION_PATTERNS), re.IGNORECASE)
_REVERT_RE = re.compile(r"^revert\b|^revert:|this reverts commit", re.IGNORECASE | re.MULTILINE)
_TYPO_RE = re.compile(r"\btypos?\b|\bspelling\b|\bmisspell", re.IGNORECASE)
_TRAILER_RE = re.compile(r"^\s*([A-Za-z]+(-[A-Za-z]+)*-by|Change-Id|Fixes-commit):\s", re.I)
_FORMAT_RE = re.compile(
    r"^(run |apply )?(black|gofmt|rustfmt|prettier|cargo fmt|ruff format|isort)\b|"
    r"\breformat|^(style|format|fmt)(\(.*\))?:",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class GoldFile:
    path: str  # repo-relative POSIX path in the parent commit
    lines: tuple[int, ...]  # sorted 1-based old-side line numbers


@dataclass(frozen=True)
class Case:
    sha: str
    parent: str
    time: int  # committer time, unix seconds
    message: str  # subject and body
    gold: tuple[GoldFile, ...]  # sorted by path

    @property
    def subject(self) -> str:
        return self.message.splitlines()[0] if self.message else ""

    @property
    def task(self) -> str:
        """The message without trailers such as Signed-off-by or Co-authored-by."""
        return task_text(self.message)


@dataclass(frozen=True)
class Commit:
    sha: str
    parents: tuple[str, ...]
    time: int
    message: str


@dataclass(frozen=True)
class Change:
    status: str  # first letter of git's status: M, A, D, R, C, T
    old: str
    new: str


@dataclass(frozen=True)
class MineResult:
    cases: tuple[Case, ...]  # oldest first
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> count


def task_text(message: str) -> str:
    """A commit message as a task: trailer lines dropped, surrounding blank lines trimmed."""
    kept = [line for line in message.splitlines() if not _TRAILER_RE.match(line)]
    return "\n".join(kept).strip()


def message_skip_reason(message: str) -> str | None:
    """Why a commit message is not a usable task, or None when it is."""
    text = task_text(message)
    subject = text.splitlines()[0] if text else ""
    if len(text.split()) < MIN_WORDS:
        return "short message"
    if _REVERT_RE.search(text):
        return "revert"
    if _VERSION_RE.search(subject):
        return "version bump"
    if _TYPO_RE.search(subject):
        return "typo fix"
    if _FORMAT_RE.search(subject):
        return "formatting"
    return None


def changes_skip_reason(changes: list[Change]) -> str | None:
    """Why a commit's changed files make no case (docs only, none or too many sources)."""
    if not changes:
        return "no changes"
    if all(is_doc(c.new) or is_doc(c.old) for c in changes):
        return "docs only"
    sources = [c for c in changes if is_source(c.new) or is_source(c.old)]
    if not sources:
        return "no source files"
    if len(sources) > MAX_SOURCE_FILES:
        return "too many files"
    if not any(c.status in "MR" and is_source(c.old) for c in sources):
        return "no modified source"
    return None


def is_source(path: str) -> bool:
    """A file a case's gold can hold: a programming language's source, not vendored or built."""
    return is_code(path) and not is_excluded(path)


def list_commits(repo: Path, head: str = "HEAD", since: str | None = None) -> Iterator[Commit]:
    """Commits reachable from head (after since, when given), newest first."""
    rev = f"{since}..{head}" if since else head
    out = git(repo, "log", "-z", "--format=%H%x1f%P%x1f%ct%x1f%B", rev)
    for record in out.split("\0"):
        if not record.strip():
            continue
        sha, parents, time, message = record.split("\x1f", 3)
        yield Commit(sha.strip(), tuple(parents.split()), int(time), message.strip())


def name_status(repo: Path, parent: str, sha: str) -> list[Change]:
    """Files changed between parent and sha, renames detected."""
    out = git(repo, "diff", "--name-status", "-z", "-M", "--no-ext-diff", parent, sha)
    fields = out.split("\0")
    changes: list[Change] = []
    i = 0
    while i < len(fields) - 1:
        status = fields[i][:1]
        if status in "RC":
            changes.append(Change(status, fields[i + 1], fields[i + 2]))
            i += 3
        else:
            changes.append(Change(status, fields[i + 1], fields[i + 1]))
            i += 2
    return sorted(changes, key=lambda c: (c.old, c.new))


def is_formatting_only(repo: Path, parent: str, sha: str, paths: list[str]) -> bool:
    """True when the diff of paths vanishes once whitespace and blank lines are ignored."""
    args = ["diff", "--quiet", "--no-ext-diff", "-w", "--ignore-blank-lines", parent, sha]
    return git_ok(repo, *args, "--", *paths)


def gold_files(repo: Path, parent: str, sha: str, changes: list[Change]) -> tuple[GoldFile, ...]:
    """Old-side changed lines of every modified source file that existed in parent."""
    modified = {c.old for c in changes if c.status in "MR" and is_source(c.old)}
    paths = sorted({p for c in changes if c.old in modified for p in (c.old, c.new)})
    out = git(repo, "diff", "-U0", "-M", "--no-color", "--no-ext-diff", parent, sha, "--", *paths)
    hunks = [h for h in parse_unified_zero(out) if h.old_path in modified]

    def old_lines(path: str) -> list[str]:
        text = git(repo, "cat-file", "-p", f"{parent}:{path}")
        return [line.removesuffix("\r") for line in text.split("\n")]  # git's numbering

    result = [_gold_lines(h, old_lines) for h in hunks]
    return tuple(sorted((g for g in result if g.lines), key=lambda g: g.path))


def _gold_lines(hunks: FileHunks, old_lines: Callable[[str], list[str]]) -> GoldFile:
    """The changed old lines that hold code, and for a pure insertion (or a change of blank
    lines only) the nearest such line on either side of the point.

    Blank lines are left out: they carry nothing to show, and a chunk-based pack never
    shows the blank lines between definitions while a line window shows them for free.
    """
    text = old_lines(hunks.old_path)

    def filled(n: int) -> bool:
        return 1 <= n <= len(text) and bool(text[n - 1].strip())

    lines: set[int] = set()
    for start, count in hunks.old_ranges:
        changed = [n for n in range(start, start + count) if filled(n)]
        if changed:
            lines.update(changed)
            continue
        before = start if count == 0 else start - 1  # the point is after `before`
        after = before + 1 + count
        lines.update(_nearest_filled(before, -1, filled, len(text)))
        lines.update(_nearest_filled(after, 1, filled, len(text)))
    return GoldFile(hunks.old_path, tuple(sorted(lines)))


def _nearest_filled(line: int, step: int, filled: Callable[[int], bool], length: int) -> list[int]:
    while 1 <= line <= length:
        if filled(line):
            return [line]
        line += step
    return []


def examine(repo: Path, commit: Commit) -> tuple[Case | None, str]:
    """The case a commit makes, or None and the reason it was skipped."""
    if len(commit.parents) != 1:
        return None, "merge" if commit.parents else "root commit"
    reason = message_skip_reason(commit.message)
    if reason:
        return None, reason
    parent = commit.parents[0]
    changes = name_status(repo, parent, commit.sha)
    reason = changes_skip_reason(changes)
    if reason:
        return None, reason
    sources = sorted({p for c in changes for p in (c.old, c.new) if is_source(p)})
    if is_formatting_only(repo, parent, commit.sha, sources):
        return None, "formatting only"
    gold = gold_files(repo, parent, commit.sha, changes)
    if not gold:
        return None, "no changed source lines"
    return Case(commit.sha, parent, commit.time, commit.message, gold), "kept"


def mine_cases(
    repo: Path,
    limit: int,
    *,
    head: str = "HEAD",
    since: str | None = None,
) -> MineResult:
    """The newest `limit` eligible commits (after since, when given), returned oldest first."""
    cases: list[Case] = []
    skipped: Counter[str] = Counter()
    for commit in list_commits(repo, head, since):
        if len(cases) >= limit:
            break
        case, reason = examine(repo, commit)
        if case is None:
            skipped[reason] += 1
        else:
            cases.append(case)
    return MineResult(tuple(reversed(cases)), dict(sorted(skipped.items())))
