"""Where an index lives: a local folder, or a prefix on object storage (s3://, gs://, az://).

The tables are Lance datasets either way; this module gives the few other operations the
commit marker, the lock and recovery need (read, write and delete a small object, find and
remove a table) for both kinds, so those modules never branch on the kind themselves.
Objects go through Lance's own object store (``lance.file.LanceFileSession``) with the
same storage options as the tables: one set of credentials and one endpoint for all.

A failure to reach the store (no such bucket, a refused endpoint, missing credentials)
becomes one StorageError naming the location and what to check.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ctxopt.config.environment import (
    ENDPOINT_VARIABLES,
    LANCE,
    quiet_library,
    storage_endpoint,
    storage_options,
)
from ctxopt.config.paths import DbLocation, is_object_store, is_utf8, shown_path
from ctxopt.errors import StorageError, UsageError


def table_uri(db: DbLocation, name: str) -> str:
    return f"{str(db).rstrip('/')}/{name}.lance"


@dataclass(frozen=True)
class LocalIndex:
    """An index folder on this machine's disk."""

    folder: Path

    @property
    def options(self) -> dict[str, str] | None:
        return None

    def uri(self, name: str) -> str:
        return table_uri(self.folder, name)

    def probe(self) -> None:
        """Nothing to reach: a local folder is checked when it is created."""

    def read_text(self, name: str) -> str | None:
        """The object's text; None when it does not exist (OSError otherwise)."""
        try:
            return (self.folder / name).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def write_text(self, name: str, text: str) -> None:
        """Replace the object atomically: temporary file, fsync, rename, fsync the folder."""
        temporary = self.folder / f".{name}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.folder / name)
        self._sync()

    def delete(self, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.folder / name).unlink()
        self._sync()

    def exists(self, name: str) -> bool:
        return (self.folder / name).exists()

    def has_table(self, name: str) -> bool:
        return Path(self.uri(name)).is_dir()

    def remove_table(self, name: str) -> None:
        shutil.rmtree(self.uri(name), ignore_errors=True)

    def _sync(self) -> None:
        """fsync the folder so a rename survives a power cut (best effort)."""
        with contextlib.suppress(OSError):
            fd = os.open(self.folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def __str__(self) -> str:
        return str(self.folder)


@dataclass(frozen=True)
class RemoteIndex:
    """An index under a prefix of a bucket.  A put of one object is atomic on S3, GCS and
    Azure (a reader sees the old object or the new one, whole), so the marker needs no rename."""

    base: str  # scheme://bucket/prefix, no trailing slash
    options: dict[str, str] = field(default_factory=dict)

    def uri(self, name: str) -> str:
        return table_uri(self.base, name)

    def probe(self) -> None:
        """List the prefix once: a missing bucket, a refused endpoint or missing credentials
        stop here with one line, before any table is opened."""
        with self._reaching():
            self._session().list_with_delimiter()

    def read_text(self, name: str) -> str | None:
        with self._reaching():
            session = self._session()
            if not session.contains(name):
                return None
            with _scratch() as local:
                try:
                    session.download_file(name, local)
                except (OSError, RuntimeError, ValueError):
                    if not session.contains(name):  # deleted since we looked: no object
                        return None
                    raise
                return Path(local).read_text(encoding="utf-8")

    def write_text(self, name: str, text: str) -> None:
        with self._reaching(), _scratch() as local:
            Path(local).write_text(text, encoding="utf-8")
            self._session().upload_file(local, name)

    def delete(self, name: str) -> None:
        with self._reaching():
            session = self._session()
            if session.contains(name):
                session.delete_file(name)

    def exists(self, name: str) -> bool:
        with self._reaching():
            return bool(self._session().contains(name))

    def has_table(self, name: str) -> bool:
        with self._reaching():
            prefixes = self._session().list_with_delimiter().common_prefixes
        return f"{name}.lance" in {p.rstrip("/").rsplit("/", 1)[-1] for p in prefixes}

    def remove_table(self, name: str) -> None:
        """Delete every object of the table (object stores have no folders to remove)."""
        with self._reaching():
            session = self._session()
            for key in session.list(f"{name}.lance"):
                session.delete_file(key)

    def _session(self) -> Any:
        quiet_library(LANCE)
        from lance.file import LanceFileSession

        return LanceFileSession(self.base, storage_options=self.options)

    @contextlib.contextmanager
    def _reaching(self) -> Iterator[None]:
        try:
            yield
        except (OSError, RuntimeError, ValueError) as exc:
            raise storage_error(self.base, exc) from None

    def __str__(self) -> str:
        return self.base


IndexLocation = LocalIndex | RemoteIndex


def locate(db: DbLocation) -> IndexLocation:
    """The location of the index at db, with storage options from the environment."""
    if is_object_store(db):
        return RemoteIndex(str(db).rstrip("/"), storage_options(str(db)))
    if not is_utf8(str(db)):
        raise UsageError(
            f"the index folder {shown_path(str(db))} has a name that is not UTF-8, which "
            "LanceDB cannot open; pass --db with a UTF-8 path"
        )
    return LocalIndex(Path(db))


@contextlib.contextmanager
def _scratch() -> Iterator[str]:
    """A local temporary file name for an object on its way up or down."""
    handle, name = tempfile.mkstemp(prefix="ctxopt-object-")
    os.close(handle)
    try:
        yield name
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)


CREDENTIALS = {
    "s3": "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)",
    "gs": "GOOGLE_APPLICATION_CREDENTIALS",
    "az": "AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY",
}


def storage_error(base: str, exc: BaseException) -> StorageError:
    """One line for a store that cannot be reached: what failed and what to check."""
    text = str(exc)
    scheme, _, rest = base.partition("://")
    bucket = rest.partition("/")[0]
    endpoint = storage_endpoint(scheme)
    where = f" at {endpoint}" if endpoint else ""
    if "NoSuchBucket" in text or "bucket does not exist" in text.lower():
        reason = f"the bucket {bucket!r} does not exist{where}; create it or fix --db"
    elif _no_credentials(text):
        reason = f"no credentials found; set {CREDENTIALS[scheme]}"
    elif "AccessDenied" in text or "InvalidAccessKeyId" in text or "SignatureDoesNotMatch" in text:
        reason = f"access denied; check {CREDENTIALS[scheme]} and the bucket's permissions"
    elif "resolve region" in text:
        reason = (
            f"the region of bucket {bucket!r} could not be found (no such bucket, or no network);"
            " set AWS_REGION, or AWS_ENDPOINT_URL for an S3-compatible server"
        )
    elif "error sending request" in text or "Connection refused" in text or "dns error" in text:
        variables = " or ".join(ENDPOINT_VARIABLES.get(scheme, ()))
        reason = f"cannot connect to the storage endpoint{where}; check {variables}"
    else:
        reason = _short(text) if text else type(exc).__name__
    return StorageError(f"cannot reach the index at {base}: {reason}")


_NO_CREDENTIALS = (
    "credential",
    "token request",  # GCS: no key file, so the metadata server of a cloud machine is asked
    "no storage account",  # Azure
    "account name",
)
_SOURCE_PLACE = re.compile(r",\s*/\S+\.rs:\d+:\d+\s*$")  # where in Lance's Rust it was raised


def _no_credentials(text: str) -> bool:
    lowered = text.lower()
    return any(words in lowered for words in _NO_CREDENTIALS)


def _short(text: str, limit: int = 200) -> str:
    """A library's message as one line of at most limit characters, cut between words,
    without the Rust source place Lance appends."""
    line = _SOURCE_PLACE.sub("", text.splitlines()[0]).strip()
    if len(line) <= limit:
        return line
    return line[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " ..."
