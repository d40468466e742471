"""One reusable work tree: a shared clone of the benchmarked repo, checked out per case."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from types import TracebackType

from benchlib.gitutil import BenchError, git, git_ok

INDEX_DIR = ".ctxopt"  # ctxopt's index folder inside the work tree; kept across checkouts


class WorkTree:
    """A `git clone --shared --no-checkout` under work (a temp dir by default, then removed)."""

    def __init__(self, repo: Path, work: Path | None = None) -> None:
        self.repo = repo
        self._temp = work is None
        self.work = Path(tempfile.mkdtemp(prefix="bench-retrieval-")) if work is None else work
        self.path = self.work / (repo.resolve().name or "repo")

    def __enter__(self) -> WorkTree:
        self.prepare()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._temp:
            shutil.rmtree(self.work, ignore_errors=True)

    def prepare(self) -> None:
        """Clone once; a clone left by an earlier run under --work is reused, but not its
        ctxopt index: every run starts from a fresh index, so its history (which incremental
        updates it went through) cannot change the figures."""
        source = str(self.repo.resolve())
        if (self.path / ".git").is_dir():
            origin = git(self.path, "config", "remote.origin.url", check=False).strip()
            if origin != source:
                raise BenchError(
                    f"{self.path} is a clone of {origin}, not {source}; pass another --work"
                )
            shutil.rmtree(self.path / INDEX_DIR, ignore_errors=True)
            return
        if self.path.exists() and any(self.path.iterdir()):
            raise BenchError(f"{self.path} exists and is not a git clone; pass another --work")
        self.work.mkdir(parents=True, exist_ok=True)
        git(self.work, "clone", "--quiet", "--shared", "--no-checkout", source, str(self.path))

    def checkout(self, sha: str) -> None:
        """Make the work tree exactly sha, keeping only the ctxopt index among untracked files."""
        if not git_ok(self.path, "cat-file", "-e", f"{sha}^{{commit}}"):
            git(self.path, "fetch", "--quiet", str(self.repo.resolve()), sha)
        git(self.path, "checkout", "--quiet", "--force", "--detach", sha)
        git(self.path, "clean", "-ffdxq", "-e", INDEX_DIR)
