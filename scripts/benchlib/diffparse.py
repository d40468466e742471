"""Parse the hunk headers of a `git diff -U0` patch."""

from __future__ import annotations

import re
from dataclasses import dataclass

_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class FileHunks:
    old_path: str  # "" for an added file
    new_path: str  # "" for a deleted file
    old_ranges: tuple[tuple[int, int], ...]  # (start, count) on the old side, in order


def _strip_prefix(raw: str, prefix: str) -> str:
    name = raw.rstrip("\t")
    if name == "/dev/null":
        return ""
    if name.startswith('"') and name.endswith('"'):
        name = name[1:-1]
    return name[len(prefix) :] if name.startswith(prefix) else name


class _Parser:
    """A small state machine: file headers, then hunks whose bodies are skipped by count."""

    def __init__(self) -> None:
        self.files: list[FileHunks] = []
        self.old = ""
        self.new = ""
        self.ranges: list[tuple[int, int]] = []
        self.remaining = 0  # body lines left in the current hunk
        self.open = False

    def flush(self) -> None:
        if self.open and self.ranges:
            self.files.append(FileHunks(self.old, self.new, tuple(self.ranges)))
        self.old, self.new, self.ranges, self.open = "", "", [], False

    def feed(self, line: str) -> None:
        if self.remaining > 0 and line[:1] in "+-":
            self.remaining -= 1
        elif line.startswith("diff --git "):
            self.flush()
            self.open = True
        elif line.startswith("--- "):
            self.old = _strip_prefix(line[4:], "a/")
        elif line.startswith("+++ "):
            self.new = _strip_prefix(line[4:], "b/")
        elif match := _HUNK_RE.match(line):
            old_start, old_count, _, new_count = match.groups()
            old_n = 1 if old_count is None else int(old_count)
            new_n = 1 if new_count is None else int(new_count)
            self.ranges.append((int(old_start), old_n))
            self.remaining = old_n + new_n


def parse_unified_zero(patch: str) -> list[FileHunks]:
    """Files of a patch with the old-side (start, count) of each hunk."""
    parser = _Parser()
    for line in patch.split("\n"):
        parser.feed(line)
    parser.flush()
    return parser.files
