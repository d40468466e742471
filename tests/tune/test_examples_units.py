"""What a training example counts as its answer: the chunks holding lines the commit added,
and as a whole each modified file none of whose candidates holds one."""

from __future__ import annotations

from pathlib import Path

from ctxopt.discover.history import added_lines
from ctxopt.tune.examples import _example
from ctxopt.types import Chunk, ChunkKind, ScoredChunk
from helpers import commit_all, git, init_repo, write_files


def _hit(path: str, name: str, text: str) -> ScoredChunk:
    chunk = Chunk(
        id=f"{path}:{name}", path=path, language="python", kind=ChunkKind.FUNCTION, name=name,
        qualified_name=name, signature=f"def {name}():", docstring="", start_line=1,
        end_line=text.count("\n") + 1, text=text, tokens=20, content_hash=f"{path}:{name}",
    )  # fmt: skip
    return ScoredChunk(chunk, 0.5, {}, (), {})


def test_added_lines_are_the_long_lines_a_commit_added(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"a.py": "def f():\n    return 1\n", "b.py": "x = 1\n"})
    commit_all(repo, "first")
    write_files(repo, {"a.py": "def f():\n    value = compute_the_limit()\n    return 1\n"})
    write_files(repo, {"b.py": "x = 1\ny = 2\n", "c.c": "++items_counted_total;\n"})
    commit_all(repo, "second")
    sha = git(repo, "rev-parse", "HEAD").strip()
    assert added_lines(repo, sha, ["a.py", "b.py"]) == {"value = compute_the_limit()"}
    assert added_lines(repo, sha, ["c.c"]) == {"++items_counted_total;"}  # not a header
    assert added_lines(repo, sha, ["b.py"]) == frozenset()  # "y = 2" is too short to tell
    assert added_lines(repo, "0" * 40, ["a.py"]) == frozenset()  # git fails: nothing


def test_units_are_the_chunks_holding_added_lines_else_whole_files() -> None:
    ranked = [
        _hit("a.py", "other", "def other():\n    return 2"),
        _hit("a.py", "changed", "def changed():\n    value = compute_the_limit()"),
        _hit("b.py", "first", "def first():\n    pass"),
        _hit("b.py", "second", "def second():\n    pass"),
        _hit("c.py", "unrelated", "def unrelated():\n    value = compute_the_limit()"),
    ]
    added = frozenset({"value = compute_the_limit()"})
    example = _example("abc", ranked, ["a.py", "b.py", "d.py"], added)
    units = example.gold_of.tolist()
    assert units[0] == -1 and units[1] >= 0  # a.py: only the chunk holding the added line
    assert units[2] == units[3] >= 0 and units[2] != units[1]  # b.py: one unit, any chunk
    assert units[4] == -1  # not a modified file
    assert example.gold == 3  # a.py's chunk, b.py, and d.py (no candidate reaches it)
