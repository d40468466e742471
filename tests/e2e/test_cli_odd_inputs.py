"""Odd repositories and files through the real CLI: unreadable files, odd names, deep trees,
many files, an empty repository, a detached HEAD, a submodule, a read-only repository and a
10 MB one-line file.  Each is indexed, then queried or packed; none crashes.

Denials are real: as root, chmod 000 does not stop a read, so the CLI runs without the
capabilities that override file permissions (setpriv), and a read-only repository is a
read-only bind mount in a private mount namespace (unshare -m); as another user chmod does.
Each test first checks that the denial holds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from clitools import CliRunner, assert_one_line_error, run_cli
from helpers import commit_all, git, init_repo, write_files

pytestmark = pytest.mark.slow

ROOT = os.geteuid() == 0
NO_OVERRIDE = ("setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--")


def unprivileged() -> tuple[str, ...]:
    """A command prefix under which file permissions hold (nothing when not root)."""
    if not ROOT:
        return ()
    assert shutil.which("setpriv"), "as root, the test needs setpriv (util-linux) to drop caps"
    return NO_OVERRIDE


def read_only(repo: Path) -> tuple[str, ...]:
    """A command prefix that sees repo as a read-only filesystem (root), or nothing after
    making it read-only by permissions (another user)."""
    if not ROOT:
        for folder, _dirs, _files in os.walk(repo):
            os.chmod(folder, 0o555)
        return ()
    assert shutil.which("unshare"), "as root, the test needs unshare (util-linux)"
    mount = f'mount --bind -o ro "{repo}" "{repo}" && exec "$@"'
    return ("unshare", "-m", "sh", "-c", mount, "sh")


def denied(prefix: tuple[str, ...], *command: str) -> bool:
    return subprocess.run([*prefix, *command], capture_output=True).returncode != 0


def test_unreadable_files_and_folders_are_skipped_and_counted(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = init_repo(tmp_path / "locked")
    write_files(
        repo,
        {
            "ok.py": "def open_door():\n    return 1\n",
            "locked.py": "def hidden_vault():\n    return 2\n",
            "closed/inside.py": "def behind_door():\n    return 3\n",
        },
    )
    commit_all(repo)
    (repo / "locked.py").chmod(0)
    (repo / "closed").chmod(0)
    try:
        prefix = unprivileged()
        assert denied(prefix, "cat", str(repo / "locked.py"))  # the denial is real
        result = run_cli("index", str(repo), "--json", prefix=prefix)
        assert result.code == 0, result.err
        stats = result.json()
        assert isinstance(stats, dict)
        assert stats["files"] == 1
        assert stats["skipped"] == {"unreadable": 2}
        assert "Traceback" not in result.err
        pack = run_cli("pack", "open door hidden vault", "--path", str(repo), prefix=prefix)
        assert pack.code == 0, pack.err
        assert "open_door" in pack.out and "hidden_vault" not in pack.out
    finally:
        (repo / "locked.py").chmod(0o644)
        (repo / "closed").chmod(0o755)


def test_paths_with_spaces_and_non_ascii_names(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "odd names")
    odd = "dir with space/ünïcödé 漢字/mödülé file.py"
    write_files(
        repo,
        {odd: "def straße_helper():\n    return 'ß'\n", "plain.py": "def plain():\n    return 1\n"},
    )
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    found = cli("query", "straße helper", "--path", str(repo), "--json").hits()
    assert found[0]["file"] == odd and found[0]["name"] == "straße_helper"
    for fmt in ("markdown", "xml"):
        pack = cli("pack", "straße helper", "--path", str(repo), "--format", fmt)
        assert pack.code == 0, pack.err
        assert odd in pack.out and "def straße_helper():" in pack.out
    ElementTree.fromstring(pack.out)


def test_a_file_name_with_a_line_break_stays_on_one_line(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "newline")
    odd = "we\nird.py"
    write_files(
        repo, {odd: "def alpha_helper():\n    return 1\n", "ok.py": "def beta():\n    return 2\n"}
    )
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    found = cli("query", "alpha helper", "--path", str(repo), "--json").hits()
    assert found[0]["file"] == odd  # machine output keeps the real name
    table = cli("query", "alpha helper", "--path", str(repo))
    assert table.code == 0 and '"we\\nird.py":1-2' in table.out + table.err
    for fmt, header in (
        ("markdown", '## "we\\nird.py" (python'),
        ("plain", '=== "we\\nird.py" (python'),
    ):
        pack = cli("pack", "alpha helper", "--path", str(repo), "--format", fmt)
        assert pack.code == 0, pack.err
        assert header in pack.out and "def alpha_helper():" in pack.out
        assert not any(
            line in ("we", "ird.py") or line.startswith("ird.py") for line in pack.out.splitlines()
        )
    xml = cli("pack", "alpha helper", "--path", str(repo), "--format", "xml")
    sources = [s.text for s in ElementTree.fromstring(xml.out).iter("source")]
    assert odd in sources  # a parser gets the exact name back


def test_a_name_that_is_not_utf8_is_skipped_and_counted(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "latin")
    write_files(repo, {"ok.py": "def alpha_helper():\n    return 1\n"})
    (repo / os.fsdecode(b"caf\xe9.py")).write_text("def beta_helper():\n    return 2\n")
    (repo / os.fsdecode(b"d\xe9j\xe0")).mkdir()
    (repo / os.fsdecode(b"d\xe9j\xe0") / "inner.py").write_text("def gamma_helper():\n    pass\n")
    commit_all(repo)
    indexed = cli("index", str(repo), "--json")
    assert indexed.code == 0, indexed.err
    assert indexed.json()["skipped"] == {"name_not_utf8": 2}  # type: ignore[index]
    assert cli("query", "alpha helper", "--path", str(repo), "--json").hits()[0]["file"] == "ok.py"
    pack = cli("pack", "alpha helper", "--path", str(repo))
    assert pack.code == 0 and "def alpha_helper():" in pack.out, pack.err
    with (repo / os.fsdecode(b"caf\xe9.py")).open("a") as latin:
        latin.write("\ndef delta_helper():\n    return 4\n")
    review = cli("pack", "review this change", "--path", str(repo), "--diff")
    assert review.code == 0, review.err  # it used to call the index damaged
    assert '+++ "b/caf\\351.py"' in review.out and "+def delta_helper():" in review.out


def test_a_repository_folder_whose_name_is_not_utf8(tmp_path: Path, cli: CliRunner) -> None:
    repo = tmp_path / os.fsdecode(b"caf\xe9_repo")
    repo.mkdir()
    (repo / "a.py").write_text("def alpha_helper():\n    return 1\n")
    refused = cli("index", str(repo))
    assert_one_line_error(refused)
    assert "caf\\xe9_repo/.ctxopt has a name that is not UTF-8" in refused.err
    elsewhere = str(tmp_path / "db")
    assert cli("index", str(repo), "--db", elsewhere, "--quiet").code == 0
    for fmt in ("markdown", "xml", "plain"):
        pack = cli("pack", "alpha helper", "--path", str(repo), "--db", elsewhere, "--format", fmt)
        assert pack.code == 0, pack.err
        assert "caf\\xe9_repo" in pack.out and "def alpha_helper():" in pack.out


def test_a_tree_200_folders_deep(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "deep")
    deep = "/".join(f"level{i}" for i in range(200)) + "/leaf.py"
    write_files(repo, {deep: "def deepest_helper():\n    return 1\n", "top.py": "x = 1\n"})
    commit_all(repo)
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    assert result.json()["files"] == 2  # type: ignore[index]
    found = cli("query", "deepest helper", "--path", str(repo), "--json").hits()
    assert found[0]["file"] == deep


def test_a_thousand_small_files(tmp_path: Path, cli: CliRunner) -> None:
    """scripts/bench_many_files.py runs the same with 100,000 files (README, Reliability)."""
    repo = init_repo(tmp_path / "many")
    body = "def handler_{i}(event):\n    return event + {i}\n"
    write_files(repo, {f"pkg{i % 20}/mod_{i}.py": body.format(i=i) for i in range(1000)})
    commit_all(repo)
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    assert result.json()["files"] == 1000  # type: ignore[index]
    found = cli("query", "handler_777", "--path", str(repo), "--json").hits()
    assert found[0]["file"] == "pkg17/mod_777.py"


def test_an_empty_repository_indexes_queries_and_packs(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "empty")  # git init, no commit
    index = cli("index", str(repo))
    assert index.code == 0 and "the index is empty: the repository has no files" in index.err
    assert "language" not in index.err  # no empty table
    query = cli("query", "anything at all", "--path", str(repo))
    assert query.code == 0 and "Traceback" not in query.err
    assert "nothing relevant found" in query.err
    pack = cli("pack", "anything at all", "--path", str(repo), "--json")
    assert pack.code == 0, pack.err
    assert pack.json()["chunks"] == []  # type: ignore[index]
    assert any("the index is empty" in w for w in pack.json()["warnings"])  # type: ignore[index]
    table = cli("stats", "--path", str(repo))
    assert table.code == 0 and "largest files" not in table.out and "0 files" in table.out
    stats = cli("stats", "--path", str(repo), "--json")
    assert stats.code == 0 and stats.json()["files"] == 0  # type: ignore[index]


def test_a_detached_head(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "detached")
    write_files(repo, {"app.py": "def first_version():\n    return 1\n"})
    commit_all(repo, "first")
    write_files(repo, {"app.py": "def second_version():\n    return 2\n"})
    commit_all(repo, "second")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    assert cli("index", str(repo), "--quiet").code == 0
    found = cli("query", "first version", "--path", str(repo), "--json").hits()
    assert found[0]["name"] == "first_version"
    stats = cli("stats", "--path", str(repo), "--json").json()
    assert stats["last_commit"] == git(repo, "rev-parse", "HEAD").strip()  # type: ignore[index]
    git(repo, "checkout", "-q", "main")
    found = cli("query", "second version", "--path", str(repo), "--json").hits()  # refreshed
    assert found[0]["name"] == "second_version"


def test_a_submodule_is_skipped_and_counted(tmp_path: Path, cli: CliRunner) -> None:
    inner = init_repo(tmp_path / "inner")
    write_files(inner, {"lib.py": "def inner_helper():\n    return 1\n"})
    commit_all(inner)
    outer = init_repo(tmp_path / "outer")
    write_files(outer, {"app.py": "def outer_helper():\n    return 2\n"})
    commit_all(outer)
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "libs/in")
    commit_all(outer, "add the submodule")
    result = cli("index", str(outer), "--json")
    assert result.code == 0, result.err
    assert result.json()["skipped"] == {"submodule": 1}  # type: ignore[index]
    text = cli("index", str(outer), "--full")
    assert "submodule 1" in text.err
    found = cli("query", "outer helper", "--path", str(outer), "--json").hits()
    assert found[0]["name"] == "outer_helper"


def test_a_read_only_repository_with_the_index_elsewhere(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "ro")
    write_files(repo, {"app.py": "def read_only_helper():\n    return 1\n"})
    commit_all(repo)
    db = tmp_path / "elsewhere" / "index"
    prefix = read_only(repo)
    try:
        assert denied(prefix, "touch", str(repo / "probe"))  # writes really fail
        inside = run_cli("index", str(repo), prefix=prefix)
        assert_one_line_error(inside)
        assert "cannot create the index folder" in inside.err
        result = run_cli("index", str(repo), "--db", str(db), "--json", prefix=prefix)
        assert result.code == 0, result.err
        pack = run_cli("pack", "read only helper", "--path", str(repo), "--db", str(db),
                       prefix=prefix)  # fmt: skip
        assert pack.code == 0, pack.err
        assert "def read_only_helper():" in pack.out
        assert not (repo / ".ctxopt").exists()
    finally:
        for folder, _dirs, _files in os.walk(repo):
            os.chmod(folder, 0o755)


def test_a_read_only_index_is_read_as_it_is_and_index_says_why_it_cannot_write(
    tmp_path: Path, cli: CliRunner
) -> None:
    """A shared or CI-built index the user may not write: query and pack answer from it with
    a warning naming why the changed files were not re-indexed; index is one line."""
    repo = init_repo(tmp_path / "shared")
    write_files(repo, {"app.py": "def shared_helper():\n    return 1\n"})
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    write_files(repo, {"app.py": "def shared_helper():\n    return 2\n"})
    db = repo / ".ctxopt"
    modes = {path: path.stat().st_mode for path in [db, *db.rglob("*")]}
    for path in modes:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        prefix = unprivileged()
        assert denied(prefix, "touch", str(db / "probe"))  # writes really fail
        query = run_cli("query", "shared helper", "--path", str(repo), "--json", prefix=prefix)
        assert query.code == 0, query.err
        assert "shared_helper" in query.out
        assert "not re-indexed: the index folder is read-only to you" in query.err
        assert "drop --no-refresh" not in query.err
        pack = run_cli("pack", "shared helper", "--path", str(repo), prefix=prefix)
        assert pack.code == 0, pack.err
        assert "def shared_helper():" in pack.out and "read-only" in pack.err
        for flags in ((), ("--full",)):
            index = run_cli("index", str(repo), *flags, prefix=prefix)
            assert_one_line_error(index)
            assert "cannot write the index at" in index.err and "Permission denied" in index.err
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert cli("query", "shared helper", "--path", str(repo), "--json").code == 0


def test_a_10_mb_single_line_minified_file(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "minified")
    unit = "function f{0}(a,b){{return a+b*{0}}}var x{0}=f{0}(1,2);"
    line, size, i = [], 0, 0
    while size < 10_000_000:
        part = unit.format(i)
        line.append(part)
        size, i = size + len(part), i + 1
    (repo / "app.js").write_text("".join(line), encoding="utf-8")
    write_files(repo, {"main.py": "def start_app():\n    return 1\n"})
    commit_all(repo)
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    assert result.json()["skipped"] == {"too_large": 1}  # type: ignore[index]
    raised = cli("index", str(repo), "--json", "--max-file-bytes", "20000000")
    assert raised.code == 0, raised.err
    assert raised.json()["skipped"] == {"minified": 1}  # type: ignore[index]
    pack = cli("pack", "start app", "--path", str(repo), "--budget", "1000")
    assert pack.code == 0, pack.err
    assert "def start_app():" in pack.out and "function f1(" not in pack.out
