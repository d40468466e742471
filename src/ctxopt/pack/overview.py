"""A short repository structure overview: top folders with file counts and languages."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import PurePosixPath

from ctxopt.types import FileRecord
from ctxopt.wording import plural

MAX_LINES = 25
_last: list[tuple[Mapping[str, FileRecord], int, str]] = []  # the last records seen


def structure_overview(records: Mapping[str, FileRecord], depth: int = 2) -> str:
    """Folders up to depth with their file counts and main languages, largest first (the
    answer for the same records object is kept: a long-lived reader's never change)."""
    if _last and _last[0][0] is records and _last[0][1] == depth:
        return _last[0][2]
    text = _overview(records, depth)
    _last[:] = [(records, depth, text)]
    return text


def _overview(records: Mapping[str, FileRecord], depth: int) -> str:
    files: Counter[str] = Counter()
    languages: dict[str, Counter[str]] = defaultdict(Counter)
    for path, record in records.items():
        parts = PurePosixPath(path).parts[:-1][:depth]
        folder = "/".join(parts) + "/" if parts else "./"
        files[folder] += 1
        languages[folder][record.language] += 1
    ordered = sorted(files, key=lambda f: (-files[f], f))[:MAX_LINES]
    lines = []
    for folder in sorted(ordered):
        main = ", ".join(lang for lang, _ in languages[folder].most_common(2))
        lines.append(f"{folder}  ({plural(files[folder], 'file')}: {main})")
    if len(files) > MAX_LINES:
        lines.append(f"... and {len(files) - MAX_LINES} more folders")
    return "\n".join(lines)
