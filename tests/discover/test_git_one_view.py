"""Within `git.one_view()` a run asks git each question once; outside, every call asks anew."""

from __future__ import annotations

from pathlib import Path

from ctxopt.discover import git
from helpers import commit_all, init_repo, write_files


def test_one_view_answers_from_its_first_listing_and_head(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"a.py": "x = 1\n"})
    commit_all(repo, "first")
    first_head = git.head_commit(repo)
    with git.one_view():
        assert git.listed_files(repo) == ["a.py"]
        assert git.head_commit(repo) == first_head
        write_files(repo, {"b.py": "y = 2\n"})
        commit_all(repo, "second")
        assert git.listed_files(repo) == ["a.py"]  # the run's view, taken once
        assert git.head_commit(repo) == first_head
        assert git.head_commit(repo / "..") == ""  # another folder is another question
    assert git.listed_files(repo) == ["a.py", "b.py"]  # outside: git is asked again
    assert git.head_commit(repo) != first_head


def test_views_do_not_leak_into_each_other(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"a.py": "x = 1\n"})
    with git.one_view():
        assert git.listed_files(repo) == ["a.py"]
    write_files(repo, {"b.py": "y = 2\n"})
    with git.one_view():
        assert git.listed_files(repo) == ["a.py", "b.py"]
