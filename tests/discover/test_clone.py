"""Shallow clones of a local bare repository in a cache folder: refs, a second run that
fetches, and failures that leave nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.discover.clone import RemoteError, checkout_remote
from ctxopt.discover.remote import RemoteRepo, remote_repo
from helpers import bare_remote, git, push_to


@pytest.fixture
def served(tmp_path: Path) -> tuple[Path, Path]:
    return bare_remote(tmp_path, {"app/core.py": "def first():\n    return 1\n"})


def remote(text: str) -> RemoteRepo:
    found = remote_repo(text)
    assert found is not None
    return found


def test_a_first_run_clones_shallow_at_the_default_branch(
    served: tuple[Path, Path], tmp_path: Path
) -> None:
    work, bare = served
    cache = tmp_path / "cache"
    done = checkout_remote(remote(bare.as_uri()), None, cache=cache)
    assert done.cloned
    assert done.root.parent.parent == cache and done.root.name == "remote"
    assert done.commit == git(work, "rev-parse", "HEAD").strip()
    assert (done.root / "app" / "core.py").read_text(encoding="utf-8").startswith("def first")
    assert git(done.root, "rev-parse", "--is-shallow-repository").strip() == "true"
    assert bare.name not in git(done.root, "config", "--list")  # the URL is not stored
    assert git(done.root, "remote").strip() == ""


def test_a_second_run_fetches_the_new_commit_into_the_same_clone(
    served: tuple[Path, Path], tmp_path: Path
) -> None:
    work, bare = served
    cache = tmp_path / "cache"
    first = checkout_remote(remote(str(bare)), None, cache=cache)
    newer = push_to(work, {"app/extra.py": "def second():\n    return 2\n"})
    again = checkout_remote(remote(str(bare)), None, cache=cache)
    assert not again.cloned and again.root == first.root
    assert again.commit == newer
    assert (again.root / "app" / "extra.py").is_file()


def test_ref_selects_a_tag_a_commit_or_an_abbreviated_commit(
    served: tuple[Path, Path], tmp_path: Path
) -> None:
    work, bare = served
    tagged = git(work, "rev-parse", "v1").strip()
    push_to(work, {"app/extra.py": "def second():\n    return 2\n"})
    cache, url = tmp_path / "cache", remote(bare.as_uri())
    at_tag = checkout_remote(url, "v1", cache=cache)
    assert at_tag.commit == tagged and not (at_tag.root / "app" / "extra.py").exists()
    at_main = checkout_remote(url, "main", cache=cache)
    assert (at_main.root / "app" / "extra.py").exists()
    at_commit = checkout_remote(url, tagged, cache=cache)
    assert at_commit.commit == tagged and not (at_commit.root / "app" / "extra.py").exists()
    checkout_remote(url, "main", cache=cache)
    at_short = checkout_remote(url, tagged[:9], cache=cache)
    assert at_short.commit == tagged


def test_an_unknown_ref_names_the_ref(served: tuple[Path, Path], tmp_path: Path) -> None:
    _work, bare = served
    with pytest.raises(RemoteError, match="has no branch, tag or commit 'nope'"):
        checkout_remote(remote(str(bare)), "nope", cache=tmp_path / "cache")


def test_an_unreachable_url_is_one_line_and_leaves_no_clone(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    missing = remote((tmp_path / "missing.git").as_uri())
    with pytest.raises(RemoteError) as raised:
        checkout_remote(missing, None, cache=cache)
    assert str(raised.value).startswith(f"cannot fetch {missing.shown}: ")
    assert "\n" not in str(raised.value)
    assert not any(
        p.name == "missing" or p.name.startswith(".") for p in cache.rglob("*") if p.is_dir()
    )


def test_credentials_stay_out_of_the_message(tmp_path: Path) -> None:
    secret = remote("https://alice:s3cr3t@127.0.0.1:9/team/app.git")
    with pytest.raises(RemoteError) as raised:
        checkout_remote(secret, None, cache=tmp_path / "cache")
    assert "s3cr3t" not in str(raised.value) and "alice" not in str(raised.value)
    assert "https://***@127.0.0.1:9/team/app.git" in str(raised.value)
