"""Which repository locations are remote: the URL forms ctxopt clones, and how one is shown.

A location is a repository URL when it is, exactly:

- `https://`, `http://`, `ssh://`, `git://` or `file://` followed by a host or path;
- scp-like `user@host:path` (`git@github.com:owner/repo.git`; the user part is required, so a
  local file named `a:b` stays a path);
- a local folder that is a bare git repository (it has no work tree to index, so it is cloned).

Every other string is a local folder.  A string with another scheme (`ext::`, `s3://`, ...) is a
usage error rather than a folder that does not exist.  Credentials in a URL
(`https://user:token@host/...`) are used for git but never shown: `shown` and `redact` replace
them with `***`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ctxopt.errors import UsageError

SCHEMES = ("https", "http", "ssh", "git", "file")
ACCEPTED = "https://, http://, ssh://, git://, file://, user@host:path or a bare repository"

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)(://|::)")
_SCP = re.compile(r"^(?P<user>[A-Za-z0-9._~-]+)@(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*):(?P<path>.+)$")
_HIDDEN = re.compile(r"://(?:([^/@:\s]+):)?\*\*\*@")  # what redact leaves of credentials
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<info>[^/@\s]+)@")


@dataclass(frozen=True)
class RemoteRepo:
    """A repository to clone: the URL git is given and the same URL safe to print."""

    url: str  # as given (credentials included), or the absolute path of a bare repository
    shown: str  # credentials replaced by ***

    @property
    def key(self) -> str:
        """A short hash of the URL without credentials: one clone per URL, and a new token
        reuses it."""
        identity = _HIDDEN.sub(lambda m: f"://{m.group(1)}@" if m.group(1) else "://", self.shown)
        return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:12]

    @property
    def name(self) -> str:
        """The repository's name, from the URL's last part (`owner/app.git` -> `app`); the
        clone's folder is named after it, so packs name the repository as its owner does."""
        tail = self.shown.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        tail = re.sub(r"\.git$", "", tail)
        return re.sub(r"[^A-Za-z0-9._-]+", "-", tail).strip(".-")[:60] or "repo"


def redact(text: str) -> str:
    """text with the credentials of every URL in it replaced: `https://***@host/...`;
    an ssh user name is kept, its password hidden (`ssh://git:***@host/...`)."""

    def hide(match: re.Match[str]) -> str:
        scheme, info = match.group("scheme"), match.group("info")
        if scheme.lower().startswith("ssh"):
            user, colon, _secret = info.partition(":")
            return f"{scheme}{user}{':***' if colon else ''}@"
        return f"{scheme}***@"

    return _USERINFO.sub(hide, text)


def remote_repo(text: str) -> RemoteRepo | None:
    """The remote repository text names, or None when it is a local folder.

    UsageError for a scheme ctxopt does not clone from, or a URL without a host or path.
    """
    scheme = _SCHEME.match(text)
    if scheme:
        return _from_url(text, scheme.group(1).lower(), scheme.group(2))
    scp = _SCP.match(text)
    if scp and not scp.group("path").startswith("-"):
        return RemoteRepo(url=text, shown=text)
    folder = Path(text).expanduser()
    if is_bare_repository(folder):
        resolved = str(folder.resolve())
        return RemoteRepo(url=resolved, shown=resolved)
    return None


def _from_url(text: str, scheme: str, separator: str) -> RemoteRepo:
    shown = redact(text)
    if separator != "://" or scheme not in SCHEMES:
        raise UsageError(f"{shown!r}: ctxopt clones only {ACCEPTED}")
    parts = urlsplit(text)
    if scheme == "file":
        if not parts.path or parts.path == "/":
            raise UsageError(f"{shown!r}: a file:// URL needs the repository's path")
    elif not parts.hostname or parts.hostname.startswith("-") or not parts.path.strip("/"):
        raise UsageError(f"{shown!r}: a repository URL needs a host and a path")
    return RemoteRepo(url=text, shown=shown)


def is_bare_repository(folder: Path) -> bool:
    """A folder holding a bare git repository (HEAD, objects/ and refs/, and no .git)."""
    try:
        return (
            folder.is_dir()
            and (folder / "HEAD").is_file()
            and (folder / "objects").is_dir()
            and (folder / "refs").is_dir()
            and not (folder / ".git").exists()
        )
    except OSError:
        return False


_BAD_REF = re.compile(r"[\x00-\x20\x7f:~^?*\[\\]|\.\.|@\{")


def check_ref(ref: str) -> str:
    """A branch, tag or commit name safe to hand to git: no leading dash (it would be read as
    an option), no refspec colon, no spaces or characters git refuses in ref names."""
    if not ref or ref.startswith("-") or _BAD_REF.search(ref) or ref.endswith((".", "/", ".lock")):
        raise UsageError(f"--ref {ref!r} is not a branch, tag or commit name")
    return ref
