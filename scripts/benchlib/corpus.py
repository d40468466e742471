"""Source files of a snapshot as BM25 documents, cached by git blob across snapshots."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchlib.bm25 import tokenize
from benchlib.gitutil import git
from benchlib.paths import is_excluded
from benchlib.tokcount import count_many

WINDOW_LINES = 60
SLIDE_LINES = 30  # the sliding baseline starts a 60-line window every this many lines
MAX_BYTES = 1024 * 1024
MINIFIED_LINE_CHARS = 1000  # a file whose average line is longer is treated as minified
_SKIP_MODES = ("120000", "160000")  # symlinks and submodules


@dataclass(frozen=True)
class Segment:
    """A file or a window of one, with its BM25 terms and cl100k token count."""

    path: str
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    tokens: int
    terms: Counter[str]


@dataclass(frozen=True)
class BlobDoc:
    """Path-independent analysis of one blob: the whole file and its 60-line windows."""

    n_lines: int
    tokens: int
    terms: Counter[str]
    windows: tuple[tuple[int, int, int, Counter[str]], ...]  # (start, end, tokens, terms)
    sliding: tuple[tuple[int, int, int, Counter[str]], ...]  # the same, every SLIDE_LINES


@dataclass(frozen=True)
class Snapshot:
    files: tuple[Segment, ...]  # sorted by path
    windows: tuple[Segment, ...]  # sorted by (path, start line)
    sliding: tuple[Segment, ...]  # 60-line windows starting every SLIDE_LINES, same order
    line_counts: dict[str, int]


def split_lines(text: str) -> list[str]:
    """Lines as git counts them (split on \\n only), each keeping its newline."""
    pieces = text.split("\n")
    lines = [p + "\n" for p in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def read_source(path: Path) -> str | None:
    """The text of a baseline source file, or None when binary, too large or minified."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    text = data.decode("utf-8", "replace")
    n_lines = max(1, text.count("\n"))
    if len(text) / n_lines > MINIFIED_LINE_CHARS:
        return None
    return text


class BlobCache:
    """BlobDoc per git blob id; None marks a blob that is not a baseline source.  The sliding
    windows are made (and their tokens counted) only when asked for."""

    def __init__(self, *, sliding: bool = False) -> None:
        self.docs: dict[str, BlobDoc | None] = {}
        self.sliding = sliding

    def snapshot(self, worktree: Path) -> Snapshot:
        """Files and windows of the checked-out work tree."""
        entries = tracked_blobs(worktree)
        missing = sorted({blob: path for path, blob in entries if blob not in self.docs}.items())
        self._analyse(worktree, missing)
        return _assemble(entries, self.docs)

    def _analyse(self, worktree: Path, missing: list[tuple[str, str]]) -> None:
        texts: dict[str, list[str]] = {}
        for blob, path in missing:
            text = read_source(worktree / path)
            if text is None:
                self.docs[blob] = None
            else:
                texts[blob] = split_lines(text)
        self.docs.update(analyse_blobs(texts, sliding=self.sliding))


def _slide_starts(n_lines: int, sliding: bool) -> range:
    """Where the sliding windows start: every SLIDE_LINES while a window is not the file's tail
    that the one before already reaches; nowhere when they are not asked for."""
    if not sliding:
        return range(0)
    return range(0, max(1, n_lines - WINDOW_LINES + SLIDE_LINES), SLIDE_LINES)


def analyse_blobs(texts: dict[str, list[str]], *, sliding: bool = False) -> dict[str, BlobDoc]:
    """BlobDocs for many blobs at once, token counts batched in one call (sliding windows only
    when asked for)."""
    batch: list[str] = []
    for lines in texts.values():
        batch.append("".join(lines))
        starts = range(0, len(lines), WINDOW_LINES)
        batch.extend("".join(lines[s : s + WINDOW_LINES]) for s in starts)
        batch.extend(
            "".join(lines[s : s + WINDOW_LINES]) for s in _slide_starts(len(lines), sliding)
        )
    counts = iter(count_many(batch))
    docs: dict[str, BlobDoc] = {}
    for blob, lines in texts.items():
        file_tokens = next(counts)
        windows = [_window(lines, s, next(counts)) for s in range(0, len(lines), WINDOW_LINES)]
        slid = [_window(lines, s, next(counts)) for s in _slide_starts(len(lines), sliding)]
        whole: Counter[str] = Counter()
        for window in windows:
            whole.update(window[3])
        docs[blob] = BlobDoc(len(lines), file_tokens, whole, tuple(windows), tuple(slid))
    return docs


def _window(lines: list[str], start: int, tokens: int) -> tuple[int, int, int, Counter[str]]:
    chunk = lines[start : start + WINDOW_LINES]
    return (start + 1, start + len(chunk), tokens, Counter(tokenize("".join(chunk))))


def tracked_blobs(worktree: Path) -> list[tuple[str, str]]:
    """(path, blob id) of every tracked regular file that is not vendored, lock or minified."""
    out = git(worktree, "ls-files", "-s", "-z")
    entries: list[tuple[str, str]] = []
    for record in out.split("\0"):
        if not record:
            continue
        meta, path = record.split("\t", 1)
        mode, blob, _stage = meta.split()
        if mode in _SKIP_MODES or is_excluded(path):
            continue
        entries.append((path, blob))
    return sorted(set(entries))


def _assemble(entries: list[tuple[str, str]], docs: dict[str, BlobDoc | None]) -> Snapshot:
    files: list[Segment] = []
    windows: list[Segment] = []
    sliding: list[Segment] = []
    line_counts: dict[str, int] = {}
    for path, blob in entries:
        doc = docs.get(blob)
        if doc is None:
            continue
        line_counts[path] = doc.n_lines
        files.append(Segment(path, 1, max(1, doc.n_lines), doc.tokens, doc.terms))
        windows.extend(Segment(path, s, e, t, terms) for s, e, t, terms in doc.windows)
        sliding.extend(Segment(path, s, e, t, terms) for s, e, t, terms in doc.sliding)
    return Snapshot(tuple(files), tuple(windows), tuple(sliding), line_counts)
