"""Helpers shared by tests: real git repos in tmp folders and a deterministic fake embedder."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_REPO = ROOT / "fixtures" / "sample_repo"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def init_repo(repo: Path) -> Path:
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "config", "user.name", "Test")
    git(repo, "config", "commit.gpgsign", "false")
    return repo


def commit_all(repo: Path, message: str = "change") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def write_files(repo: Path, files: Mapping[str, str]) -> None:
    for rel, text in files.items():
        target = repo / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def sample_repo(tmp: Path) -> Path:
    """A git copy of fixtures/sample_repo with one commit."""
    repo = tmp / "sample_repo"
    shutil.copytree(SAMPLE_REPO, repo)
    init_repo(repo)
    commit_all(repo, "initial inventory service")
    return repo


class HashEmbedder:
    """Deterministic bag-of-words vectors: fast, no model; counts what it embeds."""

    name = "static-minilm-l6-pca256-v1"
    dimensions = 256

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded.extend(texts)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                bucket = int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimensions
                out[row, bucket] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms


HEAVY_MODULES = ("torch", "sentence_transformers", "transformers", "lancedb")


def run_in_fresh_python(code: str) -> tuple[str, list[str]]:
    """Run code in a new interpreter: its stdout and which heavy modules it imported."""
    probe = (
        f"{code}\nimport sys\n"
        f"print('HEAVY', ','.join(m for m in {HEAVY_MODULES!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    out, _, heavy = done.stdout.rpartition("HEAVY ")
    return out, [m for m in heavy.strip().split(",") if m]


def bare_remote(tmp: Path, files: Mapping[str, str]) -> tuple[Path, Path]:
    """(work, bare): a work repo with one commit of files, tagged v1, and a bare clone of it
    (branch main) that `push_to` updates, as a remote repository served from disk."""
    work = init_repo(tmp / "work")
    write_files(work, files)
    commit_all(work, "first")
    git(work, "tag", "v1")
    git(tmp, "clone", "-q", "--bare", str(work), "remote.git")
    bare = tmp / "remote.git"
    git(work, "remote", "add", "origin", str(bare))
    return work, bare


def push_to(work: Path, files: Mapping[str, str], message: str = "change") -> str:
    """Commit files in work, push main to its bare remote, and return the new commit."""
    write_files(work, files)
    commit_all(work, message)
    git(work, "push", "-q", "origin", "main")
    return git(work, "rev-parse", "HEAD").strip()


def ruby_plugin_source(guide_lines: int, methods: int) -> str:
    """A roda-style plugin file: a guide of guide_lines comment lines between `module Plugins`
    and the plugin's module (lines 3 to guide_lines + 2), which holds that many small methods."""
    guide = "".join(
        f"    # Step {i}: pass option :opt_{i} to +r.assets+.\n" for i in range(guide_lines)
    )
    body = "".join(
        f"      def helper_{i}(value)\n        value.to_s * {i} + compute_{i}(value)\n      end\n"
        for i in range(methods)
    )
    return f"class App\n  module Plugins\n{guide}    module Assets\n{body}    end\n  end\nend\n"
