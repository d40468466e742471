"""Secrets found at index time are stored with each chunk and read back; an index written
before they were stored is refused with the one-line rebuild message."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ctxopt.app.refresh import refresh_index
from ctxopt.config.settings import load_settings
from ctxopt.errors import IndexMismatchError
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.secret_counts import secret_counts
from ctxopt.index.store import IndexReader, IndexWriter
from ctxopt.retrieve.candidates import CandidateSource
from helpers import HashEmbedder, commit_all, init_repo, write_files

TOKEN = "gh" + "p_" + "Zt4kQ8wE2rY6uI0oP3aS7dF1gH5jK9lX2cV6"
PASSWORD = "Nq" + "7vB2xW9zL4" + "!t"


def indexed(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    write_files(
        repo,
        {
            "app.py": (
                "def check_password(password):\n    return password == get_password()\n\n\n"
                f'def client():\n    token = "{TOKEN}"\n    return token\n'
            ),
            "settings.ini": f"[db]\nuser = app\npassword = {PASSWORD}\n",
        },
    )
    commit_all(repo)
    build_index(load_settings(repo), embedder=HashEmbedder(), workers=IN_PROCESS)
    return repo


def test_findings_are_stored_per_chunk_with_offsets_into_its_text(tmp_path: Path) -> None:
    repo = indexed(tmp_path)
    reader = IndexReader(load_settings(repo).db_path)
    chunks = CandidateSource(reader).in_files(["app.py", "settings.ini"])
    found = {(c.text[s.start : s.end], s.kind) for c in chunks for s in c.secrets}
    assert found == {(TOKEN, "github-token"), (PASSWORD, "keyword-password")}
    clean = next(c for c in chunks if c.name == "check_password")
    assert clean.secrets == ()
    assert secret_counts(reader) == {"github-token": 1, "keyword-password": 1}


def test_an_index_of_the_previous_format_is_refused(tmp_path: Path) -> None:
    repo = indexed(tmp_path)
    settings = load_settings(repo)
    meta = IndexReader(settings.db_path).meta()
    writer = IndexWriter(settings.db_path, meta.dimensions)
    writer.write_meta(replace(meta, format_version=1))
    writer.finish(rebuild_fts=False)  # committed, as an older ctxopt would have left it
    with pytest.raises(IndexMismatchError, match=r"rebuild it with `ctxopt index --full`"):
        refresh_index(settings, refresh=False)
