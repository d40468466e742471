"""Whether anything under the repository changed since the server last looked: a file
watcher (watchfiles' notify backend) instead of listing the repository on every call.

The watcher collects events in a background thread of its own; `drain` takes them.  An
event can be on its way when a call starts (written, but not yet read from the kernel by
that thread), so `drain` first touches a mark file in a folder watched by the same watcher
and takes events until the mark's own event arrives: the kernel queues one watcher's events
in order, so every change made before the call started has arrived by then.  When the mark
does not come back in time, or the watcher fails, `drain` answers None (cannot tell) and the
caller runs the full check; so does a call right after one that saw changes, since a folder
created then is watched only once its creation has been handled.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from ctxopt.index.watch import ChangeFilter

MARK_WAIT_S = 2.0  # how long a drain waits for its mark's event before giving up
STEP_MS = 1  # the watcher's polling step while a drain waits
DEBOUNCE_MS = 20  # a drain in a busy tree returns after this long at most (and loops)


_MARK_FOLDERS: set[str] = set()  # the mark folders of this process's open watchers


def remove_mark_folders() -> None:
    """Remove the mark folders of every watcher still open, without closing them: for a
    process about to end on a signal, where no `close` (nor interpreter exit) will run."""
    for folder in list(_MARK_FOLDERS):
        shutil.rmtree(folder, ignore_errors=True)


class _Deadline:
    def __init__(self) -> None:
        self.at = 0.0

    def is_set(self) -> bool:
        return time.monotonic() > self.at


class TreeWatcher:
    """Changes under root since the last drain (ctxopt's index folders and .git left out)."""

    def __init__(self, root: Path, db: Path | str) -> None:
        from watchfiles._rust_notify import RustNotify  # the notify binding `watch` uses

        self._folder = os.path.realpath(tempfile.mkdtemp(prefix="ctxopt-watch-"))
        _MARK_FOLDERS.add(self._folder)
        weakref.finalize(self, _remove, self._folder)  # a watcher never closed
        self._filter = ChangeFilter(root, db)
        self._root = str(root.resolve())
        self._deadline = _Deadline()
        self._touches = 0
        try:
            self._notify: Any = RustNotify(
                [self._root, self._folder], False, False, 300, True, True
            )
        except Exception:
            _remove(self._folder)
            raise

    def drain(self) -> bool | None:
        """True when something under root changed since the last drain, False when nothing
        did, None when the watcher cannot tell (it is then closed)."""
        if self._notify is None:
            return None
        mark = self._touch()
        self._deadline.at = time.monotonic() + MARK_WAIT_S
        changed = False
        while True:
            try:
                batch = self._notify.watch(DEBOUNCE_MS, STEP_MS, 0, self._deadline)
            except Exception:
                self.close()
                return None
            if not isinstance(batch, set):  # "stop" (the mark never came) or "signal"
                self.close()
                return None
            marked = False
            for _change, path in batch:
                if path == mark:
                    marked = True
                elif not changed and self._filter.relative(path) is not None:
                    changed = True
            if marked:
                with contextlib.suppress(OSError):
                    os.unlink(mark)
                return changed

    def _touch(self) -> str:
        """A new mark file (a new name each time: a late event of an older mark must not
        pass for this one)."""
        self._touches += 1
        mark = os.path.join(self._folder, f"mark-{self._touches}")
        with open(mark, "x", encoding="ascii"):
            pass
        return mark

    @property
    def live(self) -> bool:
        return self._notify is not None

    def close(self) -> None:
        notify, self._notify = getattr(self, "_notify", None), None
        if notify is not None:
            with contextlib.suppress(Exception):
                notify.close()
        _remove(self._folder)


def _remove(folder: str) -> None:
    _MARK_FOLDERS.discard(folder)
    shutil.rmtree(folder, ignore_errors=True)
