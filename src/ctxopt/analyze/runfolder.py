"""The run folder: one JSON file per finished window, written atomically, read back to resume."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ctxopt.errors import UsageError
from ctxopt.wording import plural

try:
    import fcntl
except ImportError:  # Windows: runs into one folder are not kept apart there
    fcntl = None  # type: ignore[assignment]

RUN_FILE = "run.json"
FINAL_FILE = "final.json"


def run_key(parts: dict[str, Any], text: str) -> str:
    """A hash of everything a window's answer depends on: text, windows, commands, prompts."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8"))
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()[:24]


def default_run_dir(key: str, cache_dir: Path | None = None) -> Path:
    """cache_dir/analyze-runs/KEY (cache_dir: Settings.model_cache, else the user cache)."""
    from ctxopt.config.paths import user_cache

    return (cache_dir or user_cache()) / "analyze-runs" / key


def window_file(folder: Path, index: int) -> Path:
    return folder / f"window-{index:04d}.json"


def write_atomic(path: Path, value: Any) -> None:
    """Write JSON to a temporary file beside path, fsync it, then rename it over path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(value, out, ensure_ascii=False, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


@contextlib.contextmanager
def run_lock(folder: Path) -> Iterator[None]:
    """Hold the run folder for one run: a second run into it (a second terminal, a --resume
    of a run that still goes on) would pay for every call again, and both would write the
    same window files."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"the run folder {folder} is a file, not a folder (see --run-dir)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise UsageError(
            f"cannot use the run folder {folder}: {exc.strerror or exc} (see --run-dir)"
        ) from None
    try:
        if fcntl is None:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise UsageError(
                f"another analyze-doc run is using {folder}{who}; wait for it to end or "
                "give another --run-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)


LOCK_FILE = "run.lock"


def _holds_windows_of(folder: Path, key: str) -> bool:
    """Whether folder holds at least one stored window of a run of this key."""
    stored = read_json(folder / RUN_FILE)
    return stored is not None and stored.get("key") == key and window_file(folder, 1).exists()


def finished_run(folder: Path, key: str) -> bool:
    """Whether folder holds a run of this key that went to the end (its synthesis stored)."""
    return _holds_windows_of(folder, key) and (folder / FINAL_FILE).exists()


def open_run(
    folder: Path, key: str, *, resume: bool, restart: bool, header: dict[str, Any]
) -> list[Any]:
    """Prepare folder for the run; with resume, the stored window records 1..k in order.

    An unfinished run of the same document is never thrown away unasked: without
    --resume or --restart it stops with a message naming both.  The folder exists and is
    held (run_lock)."""
    stored = read_json(folder / RUN_FILE)
    unfinished = _holds_windows_of(folder, key) and not (folder / FINAL_FILE).exists()
    if unfinished and not (resume or restart):
        done = len(list(folder.glob("window-*.json")))
        raise UsageError(
            f"{folder} holds {plural(done, 'stored window')} of an interrupted run of this "
            "document; continue it with --resume (a window whose memory fell back runs again), "
            "or start over with --restart"
        )
    if resume and stored is not None and stored.get("key") != key:
        raise UsageError(
            f"{folder} holds another run (other document, windows or commands); "
            "drop --resume or pick another --run-dir"
        )
    records: list[Any] = []
    if resume and stored is not None:
        index = 1
        while (record := read_json(window_file(folder, index))) is not None:
            records.append(record)
            index += 1
    else:
        for old in folder.glob("window-*.json") if folder.is_dir() else ():
            old.unlink()
        (folder / FINAL_FILE).unlink(missing_ok=True)
    write_atomic(folder / RUN_FILE, {"key": key, **header})
    return records
