"""Reading a git change: every changed file is found, whatever git's quoting and prefixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.discover.changes import ChangeRequest, changed_ranges, read_change, unquote_c_style
from ctxopt.errors import UsageError
from helpers import commit_all, git, init_repo, write_files

NAMES = ("plain.py", "größe.py", "with space.py", "tab\there.py", 'quo"te.py', "日本/名前.py")
BODY = "a = 1\nb = 2\nc = 3\n"


def _repo(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {name: BODY for name in NAMES})
    commit_all(repo, "start")
    for name in NAMES:
        (repo / name).write_text("a = 1\nb = 20\nc = 3\n", encoding="utf-8")
    return repo


@pytest.mark.parametrize(
    "config",
    [(), ("diff.noprefix", "true"), ("diff.mnemonicPrefix", "true"), ("core.quotePath", "true")],
)
def test_every_changed_file_is_found(tmp_path: Path, config: tuple[str, ...]) -> None:
    repo = _repo(tmp_path)
    if config:
        git(repo, "config", *config)
    change = read_change(repo, ChangeRequest())
    assert change.ranges == {name: [(2, 2)] for name in NAMES}
    assert "b = 20" in change.text


def test_staged_and_ref_changes(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    git(repo, "add", "größe.py")
    staged = read_change(repo, ChangeRequest(staged=True))
    assert list(staged.ranges) == ["größe.py"]
    commit_all(repo, "second")
    against_first = read_change(repo, ChangeRequest(ref="HEAD~1"))
    assert set(against_first.ranges) == set(NAMES)
    with pytest.raises(UsageError, match="nothing changed against HEAD"):
        read_change(repo, ChangeRequest(ref="HEAD"))
    with pytest.raises(UsageError) as unknown:  # until 2026-12-01 git's "fatal: bad revision"
        read_change(repo, ChangeRequest(ref="no-such-ref"))
    assert "'no-such-ref' is not a commit, branch or tag here" in str(unknown.value)


def test_a_range_ending_at_head_is_a_change_between_commits(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    commit_all(repo, "second")
    git(repo, "branch", "base", "HEAD~1")
    write_files(repo, {"notes.py": "draft = 1\n"})  # untracked: not part of a commit range
    for ref in ("base..HEAD", "base...HEAD", "base...", "HEAD~1..HEAD", "HEAD^!", "HEAD^-1"):
        change = read_change(repo, ChangeRequest(ref=ref))
        assert set(change.ranges) == set(NAMES), ref
    assert "notes.py" in read_change(repo, ChangeRequest(ref="base")).ranges  # the work tree


def test_a_range_that_does_not_end_at_the_checkout_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    commit_all(repo, "second")
    (repo / "plain.py").write_text("a = 1\nb = 200\nc = 3\n", encoding="utf-8")
    commit_all(repo, "third")
    for ref in ("HEAD~2..HEAD~1", "HEAD~1^!", "HEAD~1^-1"):
        with pytest.raises(UsageError, match="HEAD~1 is not the commit checked out"):
            read_change(repo, ChangeRequest(ref=ref))
    (repo / "plain.py").write_text("x = 0\n" * 40 + "a = 1\nb = 200\nc = 3\n")
    with pytest.raises(UsageError, match=r"plain\.py changed since the commit checked out"):
        read_change(repo, ChangeRequest(ref="HEAD~1..HEAD"))  # its lines would be laid wrong
    assert "plain.py" in read_change(repo, ChangeRequest(ref="HEAD~1")).ranges
    with pytest.raises(UsageError, match="'nope' is not a commit"):
        read_change(repo, ChangeRequest(ref="HEAD..nope"))
    with pytest.raises(UsageError, match="--staged takes a commit"):
        read_change(repo, ChangeRequest(ref="HEAD~1..HEAD", staged=True))


def test_a_deleted_file_has_no_ranges_and_an_added_one_all_lines(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "plain.py").unlink()
    write_files(repo, {"new.py": "x = 1\ny = 2\n"})
    git(repo, "add", "-A")
    ranges = read_change(repo, ChangeRequest()).ranges
    assert "plain.py" not in ranges
    assert ranges["new.py"] == [(1, 2)]


def test_ranges_of_a_quoted_diff_header() -> None:
    diff = (
        b'diff --git "a/gr\\303\\266\\303\\237e.py" "b/gr\\303\\266\\303\\237e.py"\n'
        b'--- "a/gr\\303\\266\\303\\237e.py"\n'
        b'+++ "b/gr\\303\\266\\303\\237e.py"\n'
        b"@@ -2 +2,3 @@\n"
        b"-b = 2\n"
        b"+b = 20\n"
        b"@@ -9,2 +10,0 @@\n"
    )
    assert changed_ranges(diff) == {"größe.py": [(2, 4), (10, 10)]}


def test_unquote_c_style() -> None:
    assert unquote_c_style(b'"b/a\\tb\\\\c\\"d\\303\\244"') == 'b/a\tb\\c"dä'.encode()
