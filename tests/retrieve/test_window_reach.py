"""Window evidence reaches every chunk of the files it scores, however many chunks they
hold, and reads from the index only the chunks a window can give evidence to."""

from __future__ import annotations

import pytest

from ctxopt.config.settings import Settings, load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.retrieve.kept_rows import keep_rows
from ctxopt.retrieve.search import QueryOptions, rank
from helpers import HashEmbedder, commit_all, init_repo, write_files

STEPS = 2100  # small functions in the first file: more chunks than one look-up returned
TASK = "settle the ledger balance with rounding"
TARGET = """def settle_ledger_balance(ledger):
    balance = ledger.balance
    rounding = ledger.rounding
    return round(balance, rounding)


def format_amount(value):
    return f"{value:.2f}"
"""


def many_steps() -> str:
    parts = []
    for i in range(STEPS):
        call = f"ledger_{i}(x)" if i % 500 == 0 else f"x + {i}"
        parts.append(f"def step_{i}(x):\n    return {call}\n")
    return "\n\n".join(parts)


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    repo = init_repo(tmp_path_factory.mktemp("reach") / "repo")
    write_files(repo, {"a/many.py": many_steps(), "z/target.py": TARGET})
    commit_all(repo)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


@pytest.mark.parametrize("kept", [False, True], ids=["lance", "kept rows"])
def test_a_chunk_beside_the_task_s_words_joins_past_thousands_of_chunks(
    settings: Settings, kept: bool
) -> None:
    reader = IndexReader(settings.db_path)
    if kept:
        keep_rows(reader)
    assert reader.dataset("chunks").count_rows() > STEPS
    ranked = rank(settings, TASK, QueryOptions(), reader=reader).ranked
    files = {hit.chunk.path for hit in ranked}
    assert {"a/many.py", "z/target.py"} <= files  # both files' windows were scored
    (helper,) = [hit for hit in ranked if hit.chunk.name == "format_amount"]
    assert helper.features["lexical"] == 0.0  # it holds none of the task's words ...
    assert helper.features["window"] == 1.0  # ... but sits in the best window


def test_overlapping_reads_the_chunks_that_touch_the_ranges(settings: Settings) -> None:
    scans = CandidateSource(IndexReader(settings.db_path))
    kept_reader = IndexReader(settings.db_path)
    keep_rows(kept_reader)
    memory = CandidateSource(kept_reader)
    ranges = {"a/many.py": [(1, 2), (10, 14)], "z/target.py": [(7, 7)], "missing.py": [(1, 9)]}
    for source in (scans, memory):
        found = sorted((c.path, c.start_line, c.end_line) for c in source.overlapping(ranges))
        assert found == [
            ("a/many.py", 1, 2),
            ("a/many.py", 9, 10),
            ("a/many.py", 13, 14),
            ("z/target.py", 7, 8),
        ]
        assert source.overlapping({}) == [] and source.overlapping({"z/target.py": []}) == []
