"""Reading a chunk by id, or lines of a file, for the `read_chunk` and `read_file` tools.

Only what the index covers can be read: a path outside the repository, a file the index
skips (secret files, binaries, ignored ones) or an unknown id is a clear error.  Secrets are
redacted as every other output redacts them, unless settings.allow_secrets.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ctxopt.chunking import source_lines
from ctxopt.config.settings import Settings
from ctxopt.errors import UsageError
from ctxopt.index.store import IndexReader, in_list
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.secrets.chunks import redacted_chunk
from ctxopt.secrets.detect import find_secrets
from ctxopt.secrets.redact import redact
from ctxopt.types import Chunk

MAX_LINES = 2000  # one read at most; a bigger range is cut and says so
MAX_CHARS = 100_000  # so is a range of more characters (some 25,000 tokens)


@dataclass(frozen=True)
class Lines:
    path: str  # POSIX, relative to the repository
    start_line: int  # 1-based, inclusive
    end_line: int  # inclusive; 0 for an empty file
    total_lines: int
    text: str
    truncated: bool  # the range asked for was longer than MAX_LINES or MAX_CHARS
    next_line: int | None = None  # where to read on after a cut; None: nothing left
    cut_line_chars: int = 0  # a line longer than MAX_CHARS, its first MAX_CHARS shown: its length


def read_chunk(settings: Settings, reader: IndexReader, chunk_id: str) -> Chunk:
    """The indexed chunk with that id (its secrets redacted unless allowed)."""
    found = CandidateSource(reader).where(in_list("id", [chunk_id]), limit=1)
    if not found:
        raise UsageError(
            f"no chunk with id {chunk_id!r} in the index; take ids from the query or pack tools"
        )
    return found[0] if settings.allow_secrets else redacted_chunk(found[0])


def repo_path(settings: Settings, reader: IndexReader, path: str) -> str:
    """path as the index names it (POSIX, relative to the repository), or a UsageError
    when it leads outside the repository or names a file the index does not hold."""
    if "\x00" in path:  # no file name holds one (resolve() would raise ValueError)
        raise UsageError(f"{path!r} is not an indexed file of the repository (a NUL byte)")
    root = settings.root.resolve()
    given = Path(path)
    target = (given if given.is_absolute() else root / given).resolve()
    if not target.is_relative_to(root):
        raise UsageError(f"{path!r} is outside the repository at {root}")
    rel = PurePosixPath(target.relative_to(root).as_posix()).as_posix()
    if rel not in reader.file_records():
        raise UsageError(
            f"{rel!r} is not an indexed file of the repository (missing, ignored, or skipped "
            "as secret, binary or too large)"
        )
    return rel


def read_lines(
    settings: Settings, reader: IndexReader, path: str, start: int = 1, end: int | None = None
) -> Lines:
    """Lines start..end (1-based, inclusive; end None: to the end) of an indexed file."""
    rel = repo_path(settings, reader, path)
    lines = source_lines(settings.root / rel)
    if lines is None:
        raise UsageError(f"{rel!r} cannot be read")
    total = len(lines)
    if total and start > total:
        raise UsageError(f"{rel!r} has {total} lines; start_line {start} is past its end")
    last = total if end is None else min(end, total)
    if last < start and total:
        raise UsageError(f"end_line {end} is before start_line {start}")
    if not settings.allow_secrets:
        # the whole file is scanned, so a secret that spans the range's edge is found too
        text = "\n".join(lines)
        lines = redact(text, find_secrets(text), keep_lines=True).split("\n")
    asked = lines[start - 1 : last]
    shown, cut_line = within_chars(asked[:MAX_LINES])
    end_shown = start + len(shown) - 1
    truncated = len(shown) < len(asked) or cut_line > 0
    next_line = end_shown + 1 if end_shown < last else None
    text = "\n".join(shown)
    return Lines(rel, start, end_shown, total, text, truncated, next_line, cut_line)


def within_chars(lines: list[str]) -> tuple[list[str], int]:
    """The leading lines whose text (joined by line breaks) holds at most MAX_CHARS
    characters, and 0; when the first line alone holds more, its first MAX_CHARS characters
    and its length."""
    size = -1  # no line break before the first line
    for count, line in enumerate(lines):
        size += len(line) + 1
        if size > MAX_CHARS:
            if count == 0:
                return [line[:MAX_CHARS]], len(line)
            return lines[:count], 0
    return lines, 0
