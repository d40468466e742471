"""Secret files and assets are skipped by name, tracked or untracked, in git or not."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ctxopt.discover import walk as discovery
from ctxopt.discover.secret_files import is_secret_file

SECRET_TREE = {
    ".env": "DATABASE_URL=postgres://u:p@h/db\n",
    ".env.local": "TOKEN=x\n",
    "deploy/.env.production": "TOKEN=x\n",
    "docker/prod.env": "TOKEN=x\n",
    ".envrc": "export TOKEN=x\n",
    "certs/server.pem": "-----BEGIN CERTIFICATE-----\n",
    "certs/server.key": "key\n",
    "keys/id_rsa": "key\n",
    "keys/id_ed25519": "key\n",
    "keys/store.p12": "x\n",
    "keys/store.pfx": "x\n",
    "android/release.keystore": "x\n",
    "android/release.jks": "x\n",
    "home/.netrc": "machine h login u password p\n",
    "home/.pgpass": "h:5432:db:u:p\n",
    "home/.npmrc": "//registry.npmjs.org/:_authToken=x\n",
    "home/.pypirc": "[pypi]\npassword = x\n",
    "home/.aws/credentials": "[default]\n",
    "gcp/credentials.json": "{}\n",
    "gcp/my-project-service-account.json": "{}\n",
    "gcp/client_secret_123.apps.googleusercontent.com.json": "{}\n",
    "vault.kdbx": "x\n",
    "config/secrets.yml": "k: v\n",
    "infra/terraform.tfstate": "{}\n",
}
KEPT_TREE = {
    ".env.example": "DATABASE_URL=postgres://user:password@localhost/db\n",
    ".env.sample": "TOKEN=\n",
    "deploy/.env.template": "TOKEN=\n",
    "keys/id_rsa.pub": "ssh-ed25519 AAAA x\n",
    "app.py": "def main():\n    return 1\n",
    "config/settings.json": "{}\n",
    "docs/environment.md": "# env\n",
}
ASSET_TREE: dict[str, bytes] = {
    "media/logo.svg": b"<svg xmlns='http://www.w3.org/2000/svg'><path d='M0 0h1'/></svg>\n",
    "media/logo.ai": b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n" + bytes(range(1, 256)) * 20,
    "media/mock.psd": b"8BPS",
    "fonts/a.woff2": b"wOF2",
    "docs/spec.pdf": b"%PDF-1.4\n",
    "media/intro.mp4": b"....ftyp",
    "dist.zip": b"PK\x03\x04",
}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def write(root: Path, files: dict[str, str] | dict[str, bytes]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def make_repo(root: Path, in_git: bool) -> Path:
    root.mkdir(parents=True)
    if in_git:
        git(root, "init", "-q")
        git(root, "config", "user.email", "t@example.com")
        git(root, "config", "user.name", "T")
    return root


@pytest.mark.parametrize("in_git", [True, False])
def test_secret_files_are_skipped_and_templates_kept(tmp_path: Path, in_git: bool) -> None:
    root = make_repo(tmp_path / "r", in_git)
    write(root, {**SECRET_TREE, **KEPT_TREE})
    if in_git:  # half tracked (committed with -f past no ignore rule), half untracked
        tracked = sorted(SECRET_TREE)[::2]
        git(root, "add", "-f", *tracked, *KEPT_TREE)
        git(root, "commit", "-q", "-m", "x")
    found = discovery.discover(root)
    skipped = {s.path: s.reason for s in found.skipped}
    assert skipped == dict.fromkeys(SECRET_TREE, "secret")
    assert [f.path for f in found.files] == sorted(KEPT_TREE)


@pytest.mark.parametrize("in_git", [True, False])
def test_assets_are_skipped_with_their_own_reason(tmp_path: Path, in_git: bool) -> None:
    root = make_repo(tmp_path / "r", in_git)
    write(root, {**ASSET_TREE, "design.txt": ASSET_TREE["media/logo.ai"], "ok.py": b"x = 1\n"})
    found = discovery.discover(root)
    skipped = {s.path: s.reason for s in found.skipped}
    assert skipped == {**dict.fromkeys(ASSET_TREE, "asset"), "design.txt": "binary"}
    assert [f.path for f in found.files] == ["ok.py"]


@pytest.mark.parametrize("in_git", [True, False])
def test_a_link_to_a_secret_file_is_a_secret(tmp_path: Path, in_git: bool) -> None:
    root = make_repo(tmp_path / "r", in_git)
    write(root, {".env": "TOKEN=x\n", "notes.py": "x = 1\n"})
    (root / "settings.txt").symlink_to(root / ".env")
    skipped = {s.path: s.reason for s in discovery.discover(root).skipped}
    assert skipped == {".env": "secret", "settings.txt": "secret"}


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        (".env", True),
        (".env.staging", True),
        (".env.example", False),
        (".env.dist", False),
        ("id_ecdsa", True),
        ("id_ecdsa.pub", False),
        ("environment.py", False),
        ("credentials.py", False),
        ("service_account.json", True),
        ("service.json", False),
        ("tokenizer.json", False),
        ("key.py", False),
    ],
)
def test_names(name: str, secret: bool) -> None:
    extension = name[name.rfind(".") :] if name.rfind(".") > 0 else ""
    assert is_secret_file(name, extension) is secret
