"""Which locations are repository URLs, and that credentials in them are never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.discover.remote import check_ref, redact, remote_repo
from ctxopt.errors import UsageError
from helpers import git, init_repo


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/pallets/click.git",
        "http://example.org/team/app",
        "ssh://git@example.org:2222/team/app.git",
        "git://example.org/app.git",
        "file:///srv/git/app.git",
        "git@github.com:pallets/click.git",
        "deploy@example.org:/srv/git/app.git",
    ],
)
def test_urls_are_remote(url: str) -> None:
    remote = remote_repo(url)
    assert remote is not None
    assert remote.url == url


@pytest.mark.parametrize("text", ["src", "./a:b", "C:/work/app", "~/src/app", "host:path/x"])
def test_everything_else_is_a_local_folder(text: str) -> None:
    assert remote_repo(text) is None


@pytest.mark.parametrize(
    "text", ["s3://bucket/repo", "ext::sh -c touch% /tmp/pwned", "ftp://example.org/r.git"]
)
def test_other_schemes_are_refused_by_name(text: str) -> None:
    with pytest.raises(UsageError, match="ctxopt clones only https://"):
        remote_repo(text)


@pytest.mark.parametrize(
    "text", ["https://", "https:///path", "ssh://-oProxyCommand=x/r", "file://"]
)
def test_a_url_without_host_or_path_is_refused(text: str) -> None:
    with pytest.raises(UsageError):
        remote_repo(text)


def test_a_bare_repository_folder_is_remote_and_a_work_tree_is_not(tmp_path: Path) -> None:
    work = init_repo(tmp_path / "work")
    (work / "a.py").write_text("x = 1\n", encoding="utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "one")
    git(tmp_path, "clone", "-q", "--bare", str(work), "app.git")
    bare = remote_repo(str(tmp_path / "app.git"))
    assert bare is not None and bare.url == str((tmp_path / "app.git").resolve())
    assert bare.name == "app"
    assert remote_repo(str(work)) is None


def test_credentials_never_reach_the_shown_form() -> None:
    remote = remote_repo("https://alice:s3cr3t@example.org/team/app.git")
    assert remote is not None
    assert "s3cr3t" not in remote.shown and "alice" not in remote.shown
    assert remote.shown == "https://***@example.org/team/app.git"
    token = remote_repo("https://ghp_abcdef123456@github.com/o/r")
    assert token is not None and "ghp_" not in token.shown
    ssh = remote_repo("ssh://git:hunter2@example.org/r.git")
    assert ssh is not None and ssh.shown == "ssh://git:***@example.org/r.git"


def test_the_clone_folder_ignores_credentials_and_names_the_repository() -> None:
    plain = remote_repo("https://example.org/team/app.git")
    with_token = remote_repo("https://tok@example.org/team/app.git")
    other = remote_repo("https://example.org/other/app.git")
    assert plain is not None and with_token is not None and other is not None
    assert plain.key == with_token.key != other.key
    assert plain.name == other.name == "app"


def test_redact_hides_credentials_inside_any_message() -> None:
    said = "fatal: unable to access 'https://bob:pw@host/r.git/': Could not resolve host"
    assert (
        redact(said) == "fatal: unable to access 'https://***@host/r.git/': Could not resolve host"
    )


@pytest.mark.parametrize("ref", ["main", "v1.2.0", "release/2026-05", "0a1b2c3", "a" * 40])
def test_names_git_accepts_are_refs(ref: str) -> None:
    assert check_ref(ref) == ref


@pytest.mark.parametrize(
    "ref", ["--upload-pack=touch x", "-n", "a:b", "a b", "x..y", "", "v1.lock"]
)
def test_refs_that_could_act_as_options_or_refspecs_are_refused(ref: str) -> None:
    with pytest.raises(UsageError, match="--ref"):
        check_ref(ref)
