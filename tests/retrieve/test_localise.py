"""Long chunks anywhere in the top hits get focus lines where the task's words gather."""

from __future__ import annotations

from pathlib import Path

from ctxopt.retrieve.localise import LONG_LINES, localise_long_hits, needs_focus
from ctxopt.types import Chunk, ChunkKind, ScoredChunk


def write_long_function(root: Path, changed_at: int, rows: int = 150) -> Chunk:
    lines = ["def render(template):"]
    lines += [f"    part_{i} = template.piece({i})" for i in range(1, rows)]
    lines[changed_at] = "    retry_after = parse_retry_after_header(response)"
    text = "\n".join(lines)
    (root / "gen.py").write_text(text + "\n")
    return Chunk(
        id="gen.py:render", path="gen.py", language="python", kind=ChunkKind.FUNCTION,
        name="render", qualified_name="render", signature="def render(template):",
        docstring="", start_line=1, end_line=rows, text=text, tokens=10 * rows,
        content_hash="h",
    )  # fmt: skip


def test_a_long_hit_gets_the_lines_around_the_task_s_words(tmp_path: Path) -> None:
    chunk = write_long_function(tmp_path, changed_at=120)
    hit = ScoredChunk(chunk, 0.5, {}, (), {})
    assert needs_focus(hit)
    (found,) = localise_long_hits([hit], "retry_after header is not parsed", tmp_path)
    assert found.focus_lines is not None
    first, last = found.focus_lines
    assert first <= 121 <= last  # the line (1-based) that holds the words
    assert last - first + 1 < LONG_LINES


def test_short_chunks_and_chunks_with_focus_are_left_alone(tmp_path: Path) -> None:
    chunk = write_long_function(tmp_path, changed_at=120)
    focused = ScoredChunk(chunk, 0.5, {}, (), {}, (1, 60))
    short = write_long_function(tmp_path, changed_at=10, rows=40)
    hits = [focused, ScoredChunk(short, 0.4, {}, (), {})]
    assert localise_long_hits(hits, "retry_after header", tmp_path) == tuple(hits)
