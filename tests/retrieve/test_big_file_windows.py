"""A long function deep in a big code file still gets its window score and its focus lines;
a big changelog gets no windows to outscore it with."""

from __future__ import annotations

from pathlib import Path

from ctxopt.config.settings import load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.search import QueryOptions, search
from ctxopt.types import ScoredChunk
from helpers import HashEmbedder, commit_all, init_repo, write_files

FILLERS = 400  # functions of 20 lines before the long one: the file is over 250 KB
TASK = "retry_after header is not parsed"


def big_module() -> tuple[str, int]:
    """The module's text and the 1-based line that holds the task's words."""
    lines: list[str] = []
    for i in range(FILLERS):
        lines.append(f"def filler_{i}(value):")
        lines += [f'    value = value + "{"abcdefgh" * 3}{i}_{j}"' for j in range(19)]
        lines.append("")
    lines.append("def render(template):")
    body = [f"    part_{i} = template.piece({i})" for i in range(1, 150)]
    body[119] = "    retry_after = parse_retry_after_header(response)"
    lines += body
    return "\n".join(lines) + "\n", len(lines) - 149 + 120


def render_hit(tmp_path: Path, extra: dict[str, str]) -> tuple[ScoredChunk, int]:
    """The ranked hit of the long function, and the line that holds the task's words."""
    repo = init_repo(tmp_path / "repo")
    text, line = big_module()
    assert len(text.encode()) > 250_000
    write_files(repo, {"gen/big.py": text, "small.py": "def header():\n    return 1\n", **extra})
    commit_all(repo)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    found = search(settings, TASK, QueryOptions(k=20), reader=IndexReader(settings.db_path))
    (render,) = [hit for hit in found.results if hit.chunk.name == "render"]
    return render, line


def test_a_long_function_in_a_file_over_150_kb_is_localised(tmp_path: Path) -> None:
    render, line = render_hit(tmp_path, {})
    assert render.features["window"] > 0.5  # the best window of the files searched
    assert render.focus_lines is not None
    first, last = render.focus_lines
    assert first <= line <= last
    assert last - first < 100  # an excerpt, not the whole 150-line function


def test_a_changelog_over_150_kb_does_not_outscore_the_code_s_windows(tmp_path: Path) -> None:
    entries = [
        f"- {i}: retry_after header is not parsed; the retry_after header fix" for i in range(4000)
    ]
    changelog = "# Changes\n\n" + "\n".join(entries) + "\n"
    assert len(changelog.encode()) > 150_000
    render, _ = render_hit(tmp_path, {"CHANGELOG.md": changelog})
    assert render.features["window"] > 0.5  # still the best window among those scored
