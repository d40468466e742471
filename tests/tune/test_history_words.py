"""Which past commits can teach `tune`: a message of four words or more, counted as a reader
counts them (Chinese and Japanese are written without spaces), and a hint when the history
is short because the clone is shallow."""

from __future__ import annotations

from pathlib import Path

from clitools import run_cli
from ctxopt.terms import word_count
from ctxopt.tune.examples import usable
from ctxopt.types import PastCommit
from helpers import commit_all, git, init_repo, write_files


def test_words_are_counted_in_scripts_written_without_spaces() -> None:
    assert word_count("fix the router crash") == 4
    assert word_count("修复路由错误") == 3  # six characters: about three words
    assert word_count("fix 路由 crash") == 3
    assert word_count("wip") == 1


def test_a_commit_message_in_chinese_can_teach() -> None:
    indexed = {"pkg/router.py"}
    chinese = PastCommit("a" * 40, "修复路由器在空路径时崩溃的问题", ("pkg/router.py",))
    assert usable(chinese, indexed) == ("pkg/router.py",)
    terse = PastCommit("b" * 40, "修复", ("pkg/router.py",))
    assert usable(terse, indexed) is None


def test_a_shallow_clone_is_named_when_its_history_is_too_short(tmp_path: Path) -> None:
    origin = init_repo(tmp_path / "origin")
    for i in range(3):
        write_files(origin, {f"pkg/mod_{i}.py": f"def step_{i}():\n    return {i}\n"})
        commit_all(origin, f"add step {i} to the package")
    git(tmp_path, "clone", "-q", "--depth", "1", origin.as_uri(), "shallow")
    shallow = tmp_path / "shallow"
    assert run_cli("index", str(shallow), "--quiet").code == 0
    refused = run_cli("tune", "--path", str(shallow))
    assert refused.code == 2
    assert "this clone is shallow: fetch its history with `git fetch --unshallow`" in refused.err
    assert run_cli("index", str(origin), "--quiet").code == 0
    full = run_cli("tune", "--path", str(origin))
    assert full.code == 2 and "this clone is shallow" not in full.err  # too short, not shallow
