"""Discovery against real git repositories and plain folders made in tmp_path."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("ctxopt") is None:  # running from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from ctxopt.discover import git as gitmeta
from ctxopt.discover import walk as discovery
from ctxopt.errors import UsageError

IGNORE_TREE = {
    ".gitignore": "*.log\n!keep.log\nsecret/\n*.tmp\n!*.tmp\nb.tmp\n",
    "a.tmp": "re-included\n",
    "b.tmp": "re-ignored after the negation\n",
    "logs/.gitignore": "keep.log\n",
    "logs/keep.log": "re-ignored by a deeper file\n",
    "logs/run.py": "r\n",
    "main.py": "print('hi')\n",
    "app.log": "noise\n",
    "keep.log": "kept\n",
    "secret/token.txt": "x\n",
    "pkg/.gitignore": "local_*.py\n/anchored.txt\n",
    "pkg/mod.py": "x = 1\n",
    "pkg/local_tmp.py": "x = 2\n",
    "pkg/anchored.txt": "ignored here\n",
    "pkg/deep/anchored.txt": "not anchored here\n",
    "pkg/deep/.gitignore": "!local_ok.py\n",
    "pkg/deep/local_ok.py": "re-included by a deeper file\n",
    "pkg/deep/local_no.py": "still ignored\n",
    "docs/.gitignore": "**\n!*.md\n!*/\n",
    "docs/guide.md": "# guide\n",
    "docs/notes.txt": "ignored\n",
    "docs/sub/page.md": "# page\n",
    "gen/.gitignore": "out/**\n!out/keep.py\n",
    "gen/out/keep.py": "kept by negation under out/**\n",
    "gen/out/drop.py": "dropped\n",
    "white/.gitignore": "*\n!*/\n!*.py\n",  # a whitelist: folders and .py files only
    "white/q/kept.py": "kept\n",
    "white/q/notes.txt": "a re-included folder does not re-include its files\n",
    "white/top.txt": "ignored\n",
}
EXPECTED_IGNORE = [
    ".gitignore",
    "a.tmp",
    "docs/guide.md",
    "docs/sub/page.md",
    "gen/.gitignore",
    "gen/out/keep.py",
    "keep.log",
    "logs/.gitignore",
    "logs/run.py",
    "main.py",
    "pkg/.gitignore",
    "pkg/deep/.gitignore",
    "pkg/deep/anchored.txt",
    "pkg/deep/local_ok.py",
    "pkg/mod.py",
    "white/q/kept.py",
]


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    git(path, "config", "user.name", "Test")
    git(path, "config", "user.email", "test@example.com")
    git(path, "config", "commit.gpgsign", "false")
    return path


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def commit(root: Path, message: str, when: int | None = None, add_all: bool = True) -> None:
    if add_all:
        git(root, "add", "-A")
    env = dict(os.environ)
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    subprocess.run(
        ["git", "commit", "-q", "-m", message], cwd=root, check=True, env=env, capture_output=True
    )


def paths(root: Path, **kwargs: object) -> list[str]:
    return [f.path for f in discovery.discover(root, **kwargs).files]  # type: ignore[arg-type]


def reasons(root: Path, **kwargs: object) -> dict[str, str]:
    found = discovery.discover(root, **kwargs)  # type: ignore[arg-type]
    return {s.path: s.reason for s in found.skipped}


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    root = tmp_path / "plain"
    root.mkdir()
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo")


# --- git listing and ignore rules -----------------------------------------------------------


def test_tracked_and_untracked_not_ignored(repo: Path) -> None:
    write(repo, {"a.py": "a = 1\n", ".gitignore": "ignored.py\n"})
    commit(repo, "first")
    write(repo, {"new.py": "b = 2\n", "ignored.py": "c = 3\n"})
    found = discovery.discover(repo)
    assert [f.path for f in found.files] == [".gitignore", "a.py", "new.py"]
    assert found.git_root == str(repo.resolve())


def test_ignore_rules_in_git(repo: Path) -> None:
    write(repo, IGNORE_TREE)
    assert paths(repo) == EXPECTED_IGNORE


def test_ignore_rules_outside_git_match_git(repo: Path, plain: Path) -> None:
    write(repo, IGNORE_TREE)
    write(plain, IGNORE_TREE)
    assert discovery.discover(plain).git_root is None
    assert paths(plain) == paths(repo) == EXPECTED_IGNORE


def test_tracked_file_matching_gitignore_is_kept_in_git(repo: Path) -> None:
    write(repo, {"forced.log": "tracked before the rule\n"})
    commit(repo, "first")
    write(repo, {".gitignore": "*.log\n"})
    assert paths(repo) == [".gitignore", "forced.log"]


def test_ancestor_gitignore_applies_to_subfolder(repo: Path) -> None:
    write(repo, {".gitignore": "*.tmp\nsub/skip/\n", "sub/a.py": "a\n", "sub/b.tmp": "b\n"})
    write(repo, {"sub/skip/c.py": "c\n", "other.py": "o\n"})
    found = discovery.discover(repo / "sub")
    assert [f.path for f in found.files] == ["a.py"]
    assert found.files[0].abs_path == str((repo / "sub" / "a.py").resolve())
    assert found.git_root == str(repo.resolve())


def test_git_info_exclude_is_honoured(repo: Path) -> None:
    write(repo, {"a.py": "a\n", "local.py": "l\n"})
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("local.py\n")
    assert paths(repo) == ["a.py"]


def test_deleted_tracked_file_is_not_returned(repo: Path) -> None:
    write(repo, {"a.py": "a\n", "gone.py": "g\n"})
    commit(repo, "first")
    (repo / "gone.py").unlink()
    assert paths(repo) == ["a.py"]


def test_empty_repo_and_odd_names(repo: Path) -> None:
    write(repo, {"with space.py": "a\n", "ünï/cödé.py": "b\n", "tab\tname.md": "c\n"})
    assert gitmeta.head_commit(repo) == ""
    assert paths(repo) == ["tab\tname.md", "with space.py", "ünï/cödé.py"]
    assert gitmeta.last_commit_times(repo, ["with space.py"]) == {}


@pytest.mark.parametrize("in_git", [True, False])
def test_ctxoptignore(tmp_path: Path, in_git: bool) -> None:
    root = init_repo(tmp_path / "r") if in_git else tmp_path / "r"
    write(
        root,
        {
            ".ctxoptignore": "*.md\n!README.md\nfixtures/\n",
            "README.md": "r\n",
            "notes.md": "n\n",
            "fixtures/f.py": "f\n",
            "src/.ctxoptignore": "big_*.py\n",
            "src/big_table.py": "t\n",
            "src/app.py": "a\n",
        },
    )
    assert paths(root) == [".ctxoptignore", "README.md", "src/.ctxoptignore", "src/app.py"]


@pytest.mark.parametrize("in_git", [True, False])
def test_include_and_exclude_globs(tmp_path: Path, in_git: bool) -> None:
    root = init_repo(tmp_path / "r") if in_git else tmp_path / "r"
    write(root, {"a.py": "", "src/b.py": "", "src/c.ts": "", "src/deep/d.py": "", "e.md": ""})
    assert paths(root, include=["*.py"]) == ["a.py", "src/b.py", "src/deep/d.py"]
    assert paths(root, include=["src/**/*.py"]) == ["src/b.py", "src/deep/d.py"]
    assert paths(root, include=["src/"], exclude=["deep/", "*.ts"]) == ["src/b.py"]
    assert paths(root, exclude=["src"]) == ["a.py", "e.md"]


@pytest.mark.parametrize("in_git", [True, False])
def test_globs_read_a_leading_dot_slash_as_the_top_and_a_lone_negation_as_all_but(
    tmp_path: Path, in_git: bool
) -> None:
    # until 2026-12-02 `--include ./src/**` (as a shell completes it) indexed nothing, and so
    # did `--include '!src/**'`: gitignore matches neither a `./` path nor a bare negation
    root = init_repo(tmp_path / "r") if in_git else tmp_path / "r"
    write(root, {"a.py": "", "src/b.py": "", "src/deep/d.py": "", "web/src/w.py": ""})
    assert paths(root, include=["./src/**"]) == ["src/b.py", "src/deep/d.py"]
    assert paths(root, include=["./src"]) == ["src/b.py", "src/deep/d.py"]  # anchored, as `/src`
    assert paths(root, include=["!./src/**"]) == ["a.py", "web/src/w.py"]
    assert paths(root, include=["!src/"]) == ["a.py"]
    assert paths(root, exclude=["./src/deep/"]) == ["a.py", "src/b.py", "web/src/w.py"]
    assert paths(root, exclude=["!src/**"]) == sorted(paths(root))  # a lone negation excludes none
    spec = discovery.glob_spec([".github/**", "./.github"], select=True)
    assert spec is not None and spec.match_file(".github/ci.yml")


# --- skip reasons ---------------------------------------------------------------------------

SKIP_TREE: dict[str, str | bytes] = {
    "ok.py": "def f():\n    return 1\n",
    "logo.png": b"\x89PNG\r\n",
    "blob.dat": b"abc\x00def",
    "big.py": "x = 1\n" * 1000,
    "app.min.js": "var a=1;",
    "bundle.js": "var a=1;" * 300,
    "wide.css": ("a{b:c}" * 60 + "\n") * 8,
    "data.json": '{"a": 1}\n',
    "api_pb2.py": "x = 1\n",
    "svc.pb.go": "package svc\n",
    "stamp.py": "# Code generated by tool. DO NOT EDIT.\nx = 1\n",
    "late.py": "\n" * 6 + "# @generated\n",
    "auto.ts": "// This file is Auto-Generated\nexport {}\n",
    "package-lock.json": "{}\n",
    "Cargo.lock": "",
    "deps.lock": "x\n",
    "vendor/lib.go": "package lib\n",
    "web/node_modules/x/index.js": "x\n",
    "build/out.py": "o\n",
    "src/.venv/bin/tool.py": "t\n",
}


@pytest.mark.parametrize("in_git", [True, False])
def test_skip_reasons(tmp_path: Path, in_git: bool) -> None:
    root = init_repo(tmp_path / "r") if in_git else tmp_path / "r"
    write(root, SKIP_TREE)
    found = discovery.discover(root, max_file_bytes=3000)
    skipped = {s.path: s.reason for s in found.skipped}
    build = ["build/out.py"] if in_git else []  # in git, a build/ not ignored is the project's
    assert [f.path for f in found.files] == [*build, "data.json", "late.py", "ok.py"]
    assert skipped == {
        "logo.png": "asset",
        "blob.dat": "binary",
        "big.py": "too_large",
        "app.min.js": "minified",
        "bundle.js": "minified",
        "wide.css": "minified",
        "api_pb2.py": "generated",
        "svc.pb.go": "generated",
        "stamp.py": "generated",
        "auto.ts": "generated",
        "package-lock.json": "lock",
        "Cargo.lock": "lock",
        "deps.lock": "lock",
        "vendor/": "vendored",
        "web/node_modules/": "vendored",
        **({} if in_git else {"build/": "vendored"}),
        "src/.venv/": "vendored",
    }


def test_version_control_folders_are_left_out_silently(tmp_path: Path) -> None:
    """A Subversion or Mercurial checkout: its metadata (and Subversion's pristine copy of
    every file) is never indexed, and never counted."""
    root = tmp_path / "wc"
    write(
        root,
        {
            "src/app.py": "x = 1\n",
            ".svn/pristine/38/389f.svn-base": "x = 1\n",
            ".svn/entries": "12\n",
            ".hg/store/fncache": "data/src/app.py.i\n",
            "lib/.bzr/branch-format": "b\n",
            "CVS/Root": ":pserver:x\n",
        },
    )
    found = discovery.discover(root)
    assert [f.path for f in found.files] == ["src/app.py"]
    assert found.skipped == ()


def test_build_outputs_and_lock_files_outside_and_inside_git(tmp_path: Path) -> None:
    tree = {
        "src/lib.rs": "pub fn f() {}\n",
        "build/make_release.py": "def release():\n    pass\n",
        "target/debug/build.rs": "fn main() {}\n",
        ".next/server/page.js": "x\n",
        "coverage/lcov.js": "x\n",
        "gradle.lockfile": "a=1\n",
        "Package.resolved": "{}\n",
        "packages.lock.json": "{}\n",
    }
    plain = tmp_path / "plain"
    write(plain, tree)
    found = discovery.discover(plain)
    assert [f.path for f in found.files] == ["src/lib.rs"]
    outputs = {"build/", "target/", ".next/", "coverage/"}
    assert {s.path for s in found.skipped if s.reason == "vendored"} == outputs
    assert {s.path for s in found.skipped if s.reason == "lock"} == {
        "gradle.lockfile",
        "Package.resolved",
        "packages.lock.json",
    }
    repo = init_repo(tmp_path / "repo")
    write(repo, {"src/lib.rs": tree["src/lib.rs"], "build/make_release.py": "def r():\n    pass\n"})
    commit(repo, "start")
    tracked = discovery.discover(repo)
    assert [f.path for f in tracked.files] == ["build/make_release.py", "src/lib.rs"]


def test_source_file_fields(plain: Path) -> None:
    write(plain, {"pkg/m.py": "x = 1\n", "Makefile": "all:\n", "notes.weird": "n\n"})
    found = discovery.discover(plain)
    by_path = {f.path: f for f in found.files}
    source = by_path["pkg/m.py"]
    info = os.stat(plain / "pkg" / "m.py")
    assert (source.size, source.mtime_ns) == (info.st_size, info.st_mtime_ns)
    assert source.abs_path == str((plain / "pkg" / "m.py").resolve())
    assert [by_path[p].language for p in sorted(by_path)] == ["text", "text", "python"]


@pytest.mark.parametrize("in_git", [True, False])
def test_index_folder_and_extra_dirs_are_silent(tmp_path: Path, in_git: bool) -> None:
    root = init_repo(tmp_path / "r") if in_git else tmp_path / "r"
    write(root, {"a.py": "", ".ctxopt/meta.json": "{}", "sub/.ctxopt/x.py": "", "idx/d.bin": ""})
    found = discovery.discover(root, extra_ignored_dirs=[root / "idx"])
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == ()


@pytest.mark.parametrize("in_git", [True, False])
def test_symlinks(tmp_path: Path, in_git: bool) -> None:
    outside = tmp_path / "outside"
    write(outside, {"secret.py": "s = 1\n"})
    root = init_repo(tmp_path / "r") if in_git else tmp_path / "r"
    write(root, {"real.py": "r = 1\n", "pkg/inner.py": "i = 1\n"})
    (root / "out.py").symlink_to(outside / "secret.py")
    (root / "outdir").symlink_to(outside, target_is_directory=True)
    (root / "alias.py").symlink_to(root / "real.py")
    (root / "pkg" / "up").symlink_to(root, target_is_directory=True)  # a loop back to root
    (root / "loop_a").symlink_to(root / "loop_b")
    (root / "loop_b").symlink_to(root / "loop_a")
    (root / "gone.py").symlink_to(root / "missing.py")
    write(root, {".ctxoptignore": "hidden/\n", "hidden/only.py": "h = 1\n"})
    (root / "shown.py").symlink_to(root / "hidden" / "only.py")  # the way in to an ignored file
    found = discovery.discover(root)
    assert [f.path for f in found.files] == [".ctxoptignore", "pkg/inner.py", "real.py", "shown.py"]
    skipped = {s.path: s.reason for s in found.skipped}
    assert skipped == {
        "alias.py": "symlink_duplicate",  # real.py is indexed under its own name
        "out.py": "symlink_outside",
        "outdir": "symlink_outside",
        "loop_a": "symlink_loop",
        "loop_b": "symlink_loop",
        "pkg/up": "symlink_loop",
        "gone.py": "broken_symlink",
    }


def test_root_must_be_an_existing_folder(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        discovery.discover(tmp_path / "missing")
    (tmp_path / "file.py").write_text("x\n")
    with pytest.raises(UsageError, match="not a folder"):
        discovery.discover(tmp_path / "file.py")


def test_same_answer_as_plain_copy(repo: Path, tmp_path: Path) -> None:
    """The same files either way, but for build outputs (a tracked build/ is source in git)."""
    tree = {path: body for path, body in SKIP_TREE.items() if not path.startswith("build/")}
    write(repo, {**IGNORE_TREE, **tree, ".ctxoptignore": "docs/sub/\n"})
    commit(repo, "all")
    copy = tmp_path / "copy"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".git"))
    in_git, outside = discovery.discover(repo), discovery.discover(copy)
    assert [f.path for f in in_git.files] == [f.path for f in outside.files]
    assert in_git.skipped == outside.skipped


# --- git metadata ---------------------------------------------------------------------------


def test_git_root_and_head(repo: Path, plain: Path) -> None:
    write(repo, {"sub/a.py": "a\n"})
    assert gitmeta.git_root(repo / "sub") == repo.resolve()
    assert gitmeta.git_root(plain) is None
    assert gitmeta.head_commit(plain) == ""
    commit(repo, "first")
    assert gitmeta.head_commit(repo) == git(repo, "rev-parse", "HEAD").strip()


def test_last_commit_times(repo: Path) -> None:
    write(repo, {"a.py": "1\n", "sub/b.py": "1\n", "sub/c d.py": "1\n"})
    commit(repo, "one", when=1_600_000_000)
    write(repo, {"sub/b.py": "2\n"})
    commit(repo, "two", when=1_600_000_100)
    write(repo, {"a.py": "3\n", "untracked.py": "u\n"})
    git(repo, "add", "a.py")
    commit(repo, "three", when=1_600_000_200, add_all=False)
    wanted = ["a.py", "sub/b.py", "sub/c d.py", "untracked.py"]
    assert gitmeta.last_commit_times(repo, wanted) == {
        "a.py": 1_600_000_200,
        "sub/b.py": 1_600_000_100,
        "sub/c d.py": 1_600_000_000,
    }
    assert gitmeta.last_commit_times(repo / "sub", ["b.py", "c d.py"]) == {
        "b.py": 1_600_000_100,
        "c d.py": 1_600_000_000,
    }


def test_last_commit_times_one_pass_over_many_paths(repo: Path, monkeypatch) -> None:
    names = {f"m{i}.py": f"{i}\n" for i in range(30)}
    write(repo, names)
    commit(repo, "one", when=1_700_000_000)
    monkeypatch.setattr(gitmeta, "PATHSPEC_LIMIT", 5)  # forces the whole-tree pass
    times = gitmeta.last_commit_times(repo, sorted(names))
    assert times == dict.fromkeys(sorted(names), 1_700_000_000)


def test_submodules_and_nested_repositories_are_skipped_with_a_reason(tmp_path: Path) -> None:
    inner = init_repo(tmp_path / "inner")
    write(inner, {"lib.py": "def inner():\n    return 1\n"})
    commit(inner, "inner")
    outer = init_repo(tmp_path / "outer")
    write(outer, {"app.py": "x\n", "vendor/dep/.keep": ""})
    commit(outer, "outer")
    subprocess.run(
        ["git", "-C", str(outer), "-c", "protocol.file.allow=always", "submodule", "add", "-q",
         str(inner), "libs/inner"],
        check=True, capture_output=True,
    )  # fmt: skip
    init_repo(outer / "scratch")  # a repository inside, not a submodule
    write(outer / "scratch", {"notes.py": "n\n"})
    found = discovery.discover(outer)
    assert [f.path for f in found.files] == [".gitmodules", "app.py"]
    skipped = {s.path: s.reason for s in found.skipped}
    assert skipped == {"libs/inner/": "submodule", "scratch/": "submodule", "vendor/": "vendored"}
