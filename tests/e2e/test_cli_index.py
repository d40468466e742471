"""`ctxopt index` and `ctxopt stats` end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error
from helpers import commit_all, git, init_repo, sample_repo, write_files

pytestmark = pytest.mark.slow


def test_index_then_reindex_embeds_nothing(tmp_path: Path, cli: CliRunner) -> None:
    repo = sample_repo(tmp_path)
    first = cli("index", str(repo), "--json")
    assert first.code == 0, first.err
    stats = first.json()
    assert stats["files"] >= 10 and stats["chunks"] > stats["files"]
    assert stats["embedded"] == stats["chunks"]
    assert stats["embedder"].startswith("static")
    assert (repo / ".ctxopt").is_dir()
    second = cli("index", "--path", str(repo), "--json").json()
    assert second["embedded"] == 0
    assert second["chunks"] == stats["chunks"]


def test_index_folder_stays_out_of_git_status(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"app.py": "def main():\n    return 1\n"})
    commit_all(repo, "initial")
    for args in (("index", str(repo)), ("index", str(repo), "--full")):
        result = cli(*args, "--quiet")
        assert result.code == 0, result.err
        assert (repo / ".ctxopt" / ".gitignore").is_file()
        assert ".ctxopt" not in git(repo, "status", "--porcelain", "--untracked-files=all")
    report = cli("stats", "--path", str(repo), "--json")
    assert report.code == 0, report.err
    assert report.json()["files"] == 1


def test_index_summary_goes_to_stderr(tmp_path: Path, cli: CliRunner) -> None:
    repo = sample_repo(tmp_path)
    result = cli("index", str(repo))
    assert result.code == 0
    assert result.out == ""
    assert "chunks" in result.err and "python" in result.err


def test_stats_json_and_changed_since(indexed_repo: Path, cli: CliRunner) -> None:
    report = cli("stats", "--path", str(indexed_repo), "--json").json()
    assert {"files", "chunks", "tokens", "languages", "size_bytes", "embedder"} <= set(report)
    assert report["changed_since"] == 0
    assert report["size_bytes"] > 0
    (indexed_repo / "inventory" / "new_module.py").write_text("def fresh():\n    return 1\n")
    report = cli("stats", "--path", str(indexed_repo), "--json").json()
    assert report["changed_since"] == 1
    (indexed_repo / "inventory" / "new_module.py").unlink()


def test_bad_files_do_not_stop_a_run(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "bad")
    write_files(repo, {"ok.py": "def fine():\n    return 1\n", "broken.py": "def (:\n  ]]]\n"})
    (repo / "latin1.py").write_bytes(b"# caf\xe9\ndef cafe():\n    return '\xe9'\n")
    (repo / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    (repo / "tokens.py").write_text("SPECIAL = '<|endoftext|>'\n")
    commit_all(repo)
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    stats = result.json()
    assert stats["files"] == 4
    assert stats["skipped"].get("asset") == 1
    assert stats["decode_errors"] >= 1


def test_empty_repo_indexes_to_nothing(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "empty")
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    assert result.json()["files"] == 0


def test_missing_path_is_one_line(tmp_path: Path, cli: CliRunner) -> None:
    assert_one_line_error(cli("index", str(tmp_path / "nope")))


def test_file_instead_of_folder_is_one_line(tmp_path: Path, cli: CliRunner) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x")
    result = cli("index", str(target))
    assert_one_line_error(result)
    assert "not a folder" in result.err


def test_unwritable_index_location_is_one_line(tmp_path: Path, cli: CliRunner) -> None:
    repo = sample_repo(tmp_path)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the index folder should go")
    assert_one_line_error(cli("index", str(repo), "--db", str(blocker / "db")))


def test_other_embedder_says_to_rebuild(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("index", str(indexed_repo), "--embedder", "minilm")
    assert_one_line_error(result)
    assert "--full" in result.err


def test_stats_without_index_says_to_index(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "fresh")
    result = cli("stats", "--path", str(repo))
    assert_one_line_error(result)
    assert "ctxopt index" in result.err


def test_secret_files_assets_and_loops_are_skipped_and_counted(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = init_repo(tmp_path / "hostile")
    write_files(
        repo,
        {
            "app.py": "def deploy():\n    return 1\n",
            ".env.example": "DATABASE_URL=postgres://user:password@localhost/app\n",
            ".env": "STRIPE_SECRET_KEY=x\n",
            "certs/deploy.pem": "-----BEGIN CERTIFICATE-----\n",
            "media/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'></svg>\n",
        },
    )
    (repo / "media" / "logo.ai").write_bytes(b"%PDF-1.5\n" + bytes(range(1, 256)) * 40)
    commit_all(repo)  # .env and the key tracked: skipped all the same
    write_files(repo, {".env.local": "TOKEN=x\n", "keys/id_ed25519": "k\n"})  # untracked
    (repo / "loop_a").symlink_to(repo / "loop_b")
    (repo / "loop_b").symlink_to(repo / "loop_a")
    result = cli("index", str(repo), "--json")
    assert result.code == 0, result.err
    stats = result.json()
    assert stats["files"] == 2  # app.py and .env.example
    assert stats["skipped"] == {"secret": 4, "asset": 2, "symlink_loop": 2}
    human = cli("index", str(repo), "--full")
    assert human.code == 0, human.err
    assert "skipped: asset 2, secret 4, symlink_loop 2" in human.err


def test_reset_scope_forgets_the_scope_a_plain_run_keeps(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "scoped")
    write_files(repo, {"app.py": "def run():\n    return 1\n", "docs/guide.md": "# Guide\n"})
    commit_all(repo)

    def files(*flags: str) -> int:
        result = cli("index", str(repo), "--json", *flags)
        assert result.code == 0, result.err
        return int(result.json()["files"])  # type: ignore[index]

    assert files("--exclude", "docs/**") == 1
    assert files() == 1  # a plain run keeps the stored scope (and its snapshot says so)
    assert files("--reset-scope") == 2
    assert files() == 2  # the reset is stored: later runs keep the whole repository


def test_a_run_says_which_scope_it_kept_and_an_empty_scope_says_why(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = init_repo(tmp_path / "scoped")
    write_files(repo, {"app.py": "def run():\n    return 1\n", "docs/guide.md": "# Guide\n"})
    commit_all(repo)
    excluded = cli("index", str(repo), "--exclude", "docs/**")
    assert excluded.code == 0, excluded.err
    assert "scope kept from the index" not in excluded.err  # the flag set it this time
    plain = cli("index", str(repo))
    assert plain.code == 0, plain.err
    assert "scope kept from the index: --exclude docs/**" in plain.err
    assert "--reset-scope" in plain.err
    nothing = cli("index", str(repo), "--include", "nonexistent/**")
    assert nothing.code == 0, nothing.err
    assert "the index is empty: no file is within --include nonexistent/**; --exclude docs/**" in (
        nothing.err
    )
    reset = cli("index", str(repo), "--reset-scope")
    assert reset.code == 0 and "scope kept" not in reset.err and "index is empty" not in reset.err
