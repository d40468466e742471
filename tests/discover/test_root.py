"""Finding a command's repository folder against real git repositories made in tmp_path: a
folder the enclosing work tree ignores (a project in a home directory kept as a dotfiles
repository) is a plain folder of its own, other folders in a work tree are part of it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ctxopt.discover import git as gitmeta
from ctxopt.discover import walk as discovery
from ctxopt.discover.listing import git_listing
from ctxopt.discover.root import FoundRoot, RootFound, find_root
from helpers import commit_all, git, init_repo, write_files

PROJECT = {
    "main.py": "from pkg.billing import total\n",
    "pkg/billing.py": "def total(items):\n    return sum(items)\n",
    ".gitignore": "build/\n",
    "build/out.py": "generated = True\n",
}
PROJECT_FILES = [".gitignore", "main.py", "pkg/billing.py"]  # build/: by its own rules


def dotfiles_home(tmp_path: Path, ignore: str = "*\n") -> Path:
    """A home folder kept as a git repository that ignores what it does not track, holding
    the project `projects/foo` (no git of its own)."""
    home = init_repo(tmp_path / "home")
    write_files(home, {".gitignore": ignore, ".bashrc": "export EDITOR=vi\n"})
    git(home, "add", "-f", ".gitignore", ".bashrc")
    git(home, "commit", "-q", "-m", "dotfiles")
    write_files(home / "projects" / "foo", PROJECT)
    return home.resolve()


def mark_index(folder: Path) -> None:
    (folder / ".ctxopt").mkdir()
    (folder / ".ctxopt" / "committed.json").write_text("{}")


@pytest.fixture(params=["*\n", "/*\n!.bashrc\n!.gitignore\n"], ids=["star", "anchored"])
def home(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    return dotfiles_home(tmp_path, request.param)


def test_an_ignored_project_is_its_own_plain_folder(home: Path) -> None:
    foo = home / "projects" / "foo"
    assert find_root(start=foo) == FoundRoot(foo, RootFound.IGNORED, home)
    # below it, as outside git: the current folder (until an index is made above it)
    assert find_root(start=foo / "pkg") == FoundRoot(foo / "pkg", RootFound.IGNORED, home)
    assert find_root(foo) == FoundRoot(foo, RootFound.GIVEN, home)


def test_an_ignored_project_is_discovered_by_the_plain_walk(home: Path) -> None:
    foo = home / "projects" / "foo"
    found = discovery.discover(foo)
    assert [f.path for f in found.files] == PROJECT_FILES
    assert found.git_root is None
    assert git_listing(foo) is None  # no git snapshot either
    assert gitmeta.work_tree(foo) is None and gitmeta.work_tree(home) == home


def test_the_index_in_the_project_is_found_and_the_one_above_is_not(home: Path) -> None:
    foo = home / "projects" / "foo"
    mark_index(home)  # the dotfiles' own index (an older ctxopt made it from foo): none of foo
    assert find_root(start=foo) == FoundRoot(foo, RootFound.IGNORED, home)
    mark_index(foo)
    assert find_root(start=foo) == FoundRoot(foo, RootFound.INDEX, home)
    assert find_root(start=foo / "pkg") == FoundRoot(foo, RootFound.INDEX, home)


def test_a_repository_of_its_own_in_an_ignored_folder_is_that_repository(home: Path) -> None:
    foo = init_repo(home / "projects" / "foo")
    commit_all(foo)
    assert find_root(start=foo / "pkg") == FoundRoot(foo, RootFound.GIT)
    found = discovery.discover(foo)
    assert [f.path for f in found.files] == PROJECT_FILES
    assert found.git_root == str(foo)


@pytest.mark.parametrize("committed", [True, False], ids=["tracked", "untracked"])
def test_a_folder_the_work_tree_does_not_ignore_stays_part_of_it(
    tmp_path: Path, committed: bool
) -> None:
    repo = init_repo(tmp_path / "repo").resolve()
    write_files(repo, {"README.md": "r\n", "src/app/main.py": "x = 1\n", ".gitignore": "*.log\n"})
    if committed:
        commit_all(repo)
    app = repo / "src" / "app"
    assert find_root(start=app) == FoundRoot(repo, RootFound.GIT)
    assert find_root(app) == FoundRoot(app, RootFound.GIVEN)
    assert find_root(start=repo) == FoundRoot(repo, RootFound.GIT)
    assert discovery.discover(app).git_root == str(repo)


def test_a_folder_holding_tracked_files_is_part_of_the_dotfiles(tmp_path: Path) -> None:
    """git's own answer: a folder ignored by `*` whose file was added with `git add -f` is
    not ignored (its tracked file is the dotfiles repository's)."""
    home = dotfiles_home(tmp_path)
    write_files(home, {".config/nvim/init.lua": "vim.o.number = true\n"})
    git(home, "add", "-f", ".config/nvim/init.lua")
    assert find_root(start=home / ".config" / "nvim") == FoundRoot(home, RootFound.GIT)


def test_git_is_not_asked_at_a_top_or_outside_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = init_repo(tmp_path / "repo").resolve()
    plain = tmp_path / "plain" / "sub"
    plain.mkdir(parents=True)

    def no_git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
        raise AssertionError(f"git {' '.join(args)} run in {root}")

    monkeypatch.setattr(gitmeta, "run_git", no_git)
    assert find_root(start=repo) == FoundRoot(repo, RootFound.GIT)
    assert find_root(repo) == FoundRoot(repo, RootFound.GIVEN)
    assert find_root(start=plain) == FoundRoot(plain.resolve(), RootFound.CURRENT)
    assert find_root(plain) == FoundRoot(plain.resolve(), RootFound.GIVEN)
