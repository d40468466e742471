"""A git change of the work tree: the new-side line ranges per file, and the diff text.

The diff is asked for with fixed prefixes (`a/`, `b/`) whatever the user's
`diff.noprefix` or `diff.mnemonicPrefix` say, and quoted paths (names with
non-ASCII bytes, tabs or quotes, which git writes C-style) are unquoted, so every
changed file is found.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ctxopt.config.paths import is_utf8
from ctxopt.discover.git import commit_of, run_git
from ctxopt.errors import UsageError

HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.M)
_FIXED = ("--no-color", "--no-ext-diff", "--relative", "--src-prefix=a/", "--dst-prefix=b/")
_ESCAPES = {
    ord("a"): 7,
    ord("b"): 8,
    ord("t"): 9,
    ord("n"): 10,
    ord("v"): 11,
    ord("f"): 12,
    ord("r"): 13,
    ord('"'): 34,
    ord("\\"): 92,
}

Ranges = dict[str, list[tuple[int, int]]]


@dataclass(frozen=True)
class ChangeRequest:
    """Which change: the work tree against `ref` (HEAD when None), or the staged one."""

    ref: str | None = None
    staged: bool = False

    def selection(self) -> list[str]:
        """The git arguments that pick the change (`--cached`, the ref), also shown in a pack."""
        if self.staged:
            return ["--cached", *([self.ref] if self.ref else [])]
        return [self.ref or "HEAD"]

    def args(self) -> list[str]:
        return ["diff", *_FIXED, *self.selection()]


@dataclass(frozen=True)
class Change:
    request: ChangeRequest
    ranges: Ranges  # new-side line ranges per changed file (relative to the root, POSIX)
    text: str  # the diff with 3 lines of context


def read_change(root: Path, request: ChangeRequest) -> Change:
    """The change as git sees it: a file deleted, renamed, made executable or binary is a
    change too (with no new lines to point at), and so, against the work tree, is a new file
    git does not track yet.  A UsageError when git fails or nothing changed."""
    check_diff_ref(request.ref)
    commits = commit_range(request.ref)
    if commits is not None:
        _check_range(root, request, commits)
    elif request.ref is not None:  # named before git's own "fatal: bad revision" would be
        _commit_of(root, request.ref)
    bare = _diff(root, [*request.args(), "-U0", "--", "."])
    full = _diff(root, [*request.args(), "-U3", "--", "."])
    if commits is not None:
        _check_range_files(root, request.ref or "", changed_ranges(bare))
    if not request.staged and commits is None:  # the work tree: its new files count too
        for new_file in _untracked_diffs(root):
            bare += new_file
            full += new_file
    if not full.strip():
        what = "nothing staged" if request.staged else "nothing changed"
        against = f" against {request.ref}" if request.ref else ""
        raise UsageError(f"the diff is empty: {what}{against}")
    text = full.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    return Change(request, changed_ranges(bare), text)


MAX_UNTRACKED = 100  # new files shown in a work tree's change, at most
MAX_UNTRACKED_BYTES = 1_048_576  # ... each up to the walk's default size limit
_NEW_FILE = ("--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/", "-U3")


def _untracked_diffs(root: Path) -> list[bytes]:
    """The diff of each file git does not track and does not ignore, as a new file."""
    try:
        listed = run_git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
    except OSError as exc:
        raise UsageError(f"git is not available: {exc.strerror}") from exc
    paths = [os.fsdecode(p) for p in listed.stdout.split(b"\0") if p][:MAX_UNTRACKED]
    out = []
    for path in paths:
        with contextlib.suppress(OSError):
            if (root / path).stat().st_size > MAX_UNTRACKED_BYTES:
                continue  # a log or a build output: the walk leaves it out too (too_large)
        done = run_git(root, "diff", "--no-index", *_NEW_FILE, "--", os.devnull, path)
        if done.returncode == 1:  # --no-index: 1 means the two differ
            out.append(done.stdout)
    return out


def check_diff_ref(ref: str | None) -> None:
    """Refuse a --diff-ref git would read as an option (`--output=FILE` writes any file) or
    that holds a control character; revisions such as `main~2`, `v1.0^` and `@{u}` pass."""
    if ref is not None and (not ref.strip() or ref.startswith("-") or _CONTROL.search(ref)):
        raise UsageError(
            lambda names: f"{names('diff_ref')} {ref!r} is not a commit, branch or tag"
        )


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def commit_range(ref: str | None) -> tuple[str, str] | None:
    """The two ends of a `--diff-ref A..B` or `A...B` (an end left out is HEAD, as git reads
    it), or of `X^!` and `X^-N` (X's own change against a parent); None for one revision."""
    if ref is None:
        return None
    if ".." in ref:
        left, _, right = ref.partition("...") if "..." in ref else ref.partition("..")
        return left or "HEAD", right or "HEAD"
    parent = _OWN_CHANGE.fullmatch(ref)
    if parent is not None:
        commit = parent.group(1) or "HEAD"
        return f"{commit}^{parent.group(2) or 1}", commit
    return None


_OWN_CHANGE = re.compile(r"(.*)\^(?:!|-(\d*))")  # X^! and X^-N: X against its (Nth) parent


def _check_range(root: Path, request: ChangeRequest, commits: tuple[str, str]) -> None:
    """A range's new side must be the commit checked out: the pack shows the work tree's code,
    and the diff's line numbers are laid on it."""
    if request.staged:
        raise UsageError(
            lambda names: f"{names('staged')} takes a commit, not the range {request.ref!r}"
        )
    new_side, head = _commit_of(root, commits[1]), _commit_of(root, "HEAD")
    if new_side != head:
        raise UsageError(
            lambda names: (
                f"{names('diff_ref')} {request.ref}: {commits[1]} is not the commit "
                f"checked out, and a pack shows the checked-out code; check out {commits[1]} first"
            )
        )


def _check_range_files(root: Path, ref: str, ranges: Ranges) -> None:
    """A range's line numbers are the checked-out commit's: a file of it edited since would
    have them laid on other code."""
    if not ranges:
        return
    done = run_git(root, "diff", "--name-only", "-z", "--relative", "HEAD", "--", *ranges)
    edited = [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]
    if edited:
        more = f" and {len(edited) - 1} more" if len(edited) > 1 else ""
        raise UsageError(
            f"--diff-ref {ref}: {edited[0]}{more} changed since the commit checked out, so the "
            "range's lines are not the work tree's; commit or stash the edits, or pass one "
            "commit to diff the work tree against it"
        )


def _commit_of(root: Path, revision: str) -> str:
    commit = commit_of(root, revision)
    if not commit:
        raise UsageError(
            lambda names: f"{names('diff_ref')}: {revision!r} is not a commit, branch or tag here"
        )
    return commit


def _diff(root: Path, args: list[str]) -> bytes:
    try:
        done = run_git(root, *args)
    except OSError as exc:
        raise UsageError(f"git is not available: {exc.strerror}") from exc
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"git diff failed: {(lines or ['git failed'])[-1]}")
    return done.stdout


def changed_ranges(diff: bytes) -> Ranges:
    """New-side line ranges per file of a `git diff -U0` output (deletions: the line after).

    Files are read from the `+++ b/...` lines; a deleted file (`+++ /dev/null`) has none, and
    neither has one whose name is not UTF-8 (the index leaves it out: `name_not_utf8`).
    """
    ranges: Ranges = {}
    current = ""
    for line in diff.split(b"\n"):
        if line.startswith(b"+++ "):
            current = _new_path(line[4:].rstrip(b"\r"))
            current = current if is_utf8(current) else ""
            continue
        match = HUNK.match(line)
        if match and current:
            start = int(match.group(1))
            count = int(match.group(2)) if match.group(2) is not None else 1
            ranges.setdefault(current, []).append((start, start + max(count, 1) - 1))
    return ranges


def _new_path(field: bytes) -> str:
    """The path of a `+++` line: "" for /dev/null, else without its `b/` prefix."""
    # git writes unusual names C-quoted, and appends a tab to names with spaces
    field = unquote_c_style(field) if field.startswith(b'"') else field.split(b"\t", 1)[0]
    if not field.startswith(b"b/"):
        return ""
    return os.fsdecode(field[2:])


def unquote_c_style(quoted: bytes) -> bytes:
    """The bytes of a name git wrote C-style ("b/\\303\\244.py" -> b/ä.py in UTF-8)."""
    body = quoted[1 : quoted.rindex(b'"')] if quoted.count(b'"') >= 2 else quoted[1:]
    out = bytearray()
    i = 0
    while i < len(body):
        byte = body[i]
        if byte != ord("\\") or i + 1 == len(body):
            out.append(byte)
            i += 1
            continue
        nxt = body[i + 1]
        if ord("0") <= nxt <= ord("7"):
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
    return bytes(out)
