"""The in-memory chunk rows of a kept reader answer as LanceDB's scans of the same index."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.app.pack import refresh_then_pack
from ctxopt.config.settings import Settings, load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.pack.api import PackOptions
from ctxopt.retrieve import kept_rows as kept_rows_module
from ctxopt.retrieve.candidates import CandidateSource
from ctxopt.retrieve.entities import query_terms
from ctxopt.retrieve.kept_rows import keep_rows, kept_rows, loaded_rows
from helpers import HashEmbedder, init_repo, sample_repo, write_files


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    repo = sample_repo(tmp_path_factory.mktemp("rows"))
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


def kept_reader(settings: Settings) -> IndexReader:
    reader = IndexReader(settings.db_path)
    keep_rows(reader)
    return reader


def test_only_a_marked_reader_gets_rows_and_keeps_the_same_ones(settings: Settings) -> None:
    assert kept_rows(IndexReader(settings.db_path)) is None
    reader = kept_reader(settings)
    rows = kept_rows(reader)
    assert rows is not None and len(rows) == reader.dataset("chunks").count_rows() > 0
    assert kept_rows(reader) is rows


def test_look_ups_match_the_sql_scans_row_for_row(settings: Settings) -> None:
    scans = CandidateSource(IndexReader(settings.db_path))
    memory = CandidateSource(kept_reader(settings))
    table = IndexReader(settings.db_path).dataset("chunks").to_table().to_pylist()
    paths = sorted({r["path"] for r in table})
    names = sorted({r["name"] for r in table if r["name"]} | {r["qualified_name"] for r in table})
    references = sorted({n for r in table for n in r["references"] or ()})
    assert len(paths) > 5 and len(names) > 10 and len(references) > 10
    for limit in (1, 3, 2000):
        assert memory.in_files(paths[::2], limit) == scans.in_files(paths[::2], limit)
        assert memory.named(names[::3], limit) == scans.named(names[::3], limit)
        assert memory.named(names[1::7], limit) == scans.named(names[1::7], limit)
        for kinds in ((), ("test",), ("function", "method")):
            found = memory.referencing(references[::4], kinds, limit)
            assert found == scans.referencing(references[::4], kinds, limit)
    spans = {path: [(1, 3), (10, 40)] for path in paths[::3]}
    for limit in (1, 3, 2000):
        assert memory.overlapping(spans, limit) == scans.overlapping(spans, limit)
    assert len(memory.overlapping(spans, 2000)) > len(spans)
    assert memory.named(["no_such_name_anywhere"]) == []
    assert memory.in_files([]) == [] and memory.referencing([]) == []
    assert len(memory.in_files(paths)) == len(table)


def test_full_text_and_vector_hits_are_the_same_chunks_and_scores(settings: Settings) -> None:
    scans = CandidateSource(IndexReader(settings.db_path))
    memory = CandidateSource(kept_reader(settings))
    for task in ("load the inventory from storage", "report errors", "settings yaml"):
        assert memory.full_text(query_terms(task), 50) == scans.full_text(query_terms(task), 50)
        vector = HashEmbedder().embed([task])[0].tolist()
        assert memory.nearest(vector, 20) == scans.nearest(vector, 20)


def test_a_prefilter_leaves_the_look_ups_to_lancedb(settings: Settings) -> None:
    reader = kept_reader(settings)
    source = CandidateSource(reader, "kind <> 'test'")
    assert all(c.kind != "test" for c in source.in_files([c.path for c in source.where("1=1")]))


def test_a_pack_on_a_kept_reader_is_the_pack_of_a_plain_one(settings: Settings) -> None:
    options = PackOptions(task="fix the error when the inventory file is missing", budget=3000)
    plain = refresh_then_pack(settings, options, reader=IndexReader(settings.db_path))
    kept = refresh_then_pack(settings, options, reader=kept_reader(settings))
    assert kept.prompt == plain.prompt and kept.prompt


def test_an_index_without_chunks_has_empty_rows(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"image.bin": "\0\1\2"})
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    source = CandidateSource(kept_reader(settings))
    assert source.full_text("anything", 10) == []
    assert source.named(["x"]) == [] and source.referencing(["x"]) == []
    assert source.in_files(["image.bin"]) == []


def test_an_index_too_big_to_hold_stays_with_lancedb(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept_rows_module, "MAX_ROWS", 3)
    reader = kept_reader(settings)
    assert kept_rows(reader) is None and loaded_rows(reader) is None
    paths = [r["path"] for r in reader.dataset("chunks").to_table(columns=["path"]).to_pylist()]
    scans = CandidateSource(IndexReader(settings.db_path))
    assert CandidateSource(reader).in_files(paths) == scans.in_files(paths)
