"""Tuning never reads the history the index keeps: at HEAD it holds each training commit's
own message, which names the very file the example is scored on."""

from __future__ import annotations

from pathlib import Path

from ctxopt.config.settings import load_settings
from ctxopt.discover.history import recent_commits
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.scoring import merge_weights
from ctxopt.retrieve.search import QueryOptions, rank
from ctxopt.tune.examples import FEATURES, build_examples
from helpers import HashEmbedder, commit_all, init_repo, write_files

HISTORY = FEATURES.index("history")
UNIQUE = "Quarantine the zeppelin manifest when the gateway stalls"


def _repo(tmp: Path) -> Path:
    repo = init_repo(tmp / "repo")
    body = "def step(value):\n    # manifest gateway\n" + "    value += 1\n" * 5
    body += "    return value\n"
    write_files(repo, {"app/gateway.py": body, "app/manifest.py": body.replace("step", "load")})
    commit_all(repo, "Add the gateway and the manifest loader")
    (repo / "app/manifest.py").write_text(body.replace("step", "read"))
    commit_all(repo, "Read manifests from the cache folder")
    (repo / "app/gateway.py").write_text(body.replace("step", "stall"))
    commit_all(repo, UNIQUE)
    return repo


def test_examples_never_take_the_history_the_index_keeps_at_head(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    reader = IndexReader(settings.db_path)
    weights = {**merge_weights(), "history": 0.25}
    at_head = rank(settings, UNIQUE, QueryOptions(), reader=reader, weights=weights)
    gateway = [h for h in at_head.ranked if h.chunk.path == "app/gateway.py"]
    assert gateway and gateway[0].features["history"] == 1.0  # the index knows the message
    newest = recent_commits(repo)[0]
    assert newest.message == UNIQUE
    (example,) = build_examples(settings, reader, [newest])
    rows = example.features[example.gold_of >= 0]
    assert rows.size and (example.features[:, HISTORY] == 0.0).all()  # never its own answer
