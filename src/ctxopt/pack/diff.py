"""The diff shown in a pack for a change: fenced, within MAX_DIFF_TOKENS, cut between lines
with a marker naming what it leaves out, and without the changes to secrets files (`.env`,
`*.pem`: the walk never indexes them, and their diff would send them to the model)."""

from __future__ import annotations

import posixpath
import re

from ctxopt import tokens
from ctxopt.discover.changes import Change
from ctxopt.discover.secret_files import is_secret_file

MAX_DIFF_TOKENS = 4000
MARKER_ROOM = 80  # tokens kept for the marker that says where the diff was cut
_FILE_HEADER = re.compile(r"^diff --git a/.* b/(.*)$")


def diff_preface(change: Change) -> str:
    """The diff, cut to MAX_DIFF_TOKENS, fenced, with the git arguments that chose it."""
    text = cut_diff(without_secret_files(change.text), MAX_DIFF_TOKENS)
    label = " ".join(change.request.selection())
    return f"The change under review (git {label}):\n```diff\n{text}\n```"


def without_secret_files(diff: str) -> str:
    """The diff with the body of each secrets file's section replaced by one line."""
    out: list[str] = []
    hidden = False
    for line in diff.split("\n"):
        header = _FILE_HEADER.match(line)
        if header:
            name = posixpath.basename(header.group(1)).lower()
            hidden = is_secret_file(name, posixpath.splitext(name)[1])
            out.append(line)
            if hidden:
                out.append(f"[the change to {header.group(1)} is not shown: a secrets file]")
            continue
        if not hidden:
            out.append(line)
    return "\n".join(out)


def cut_diff(diff: str, limit: int) -> str:
    """diff within limit tokens: whole lines, then a marker with the lines and files left out
    (the model must not take part of a change for all of it)."""
    if tokens.count(diff) <= limit:
        return diff
    lines = diff.split("\n")
    kept: list[str] = []
    used = 0
    current = ""
    for line in lines:
        cost = tokens.count(line) + 1
        if used + cost > limit - MARKER_ROOM:
            break
        header = _FILE_HEADER.match(line)
        current = header.group(1) if header else current
        kept.append(line)
        used += cost
    rest = lines[len(kept) :]
    files = [m.group(1) for line in rest if (m := _FILE_HEADER.match(line))]
    if current and rest and not _FILE_HEADER.match(rest[0]):
        files.insert(0, f"{current} (the rest of it)")
    named = ", ".join(files[:8]) + (f" and {len(files) - 8} more files" if len(files) > 8 else "")
    marker = (
        f"[... the diff is cut here at {limit:,} tokens: {len(rest):,} more lines"
        + (f", in {named}" if named else "")
        + " ...]"
    )
    return "\n".join([*kept, marker])
