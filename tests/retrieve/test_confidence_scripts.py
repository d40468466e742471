"""Tasks and code in any script: identifiers and words outside ASCII are read as such, and the
confidence `query` and `pack` share finds a task's Chinese words in the code."""

from __future__ import annotations

from ctxopt.chunking import chunk_file
from ctxopt.retrieve.confidence import retrieval_confidence
from ctxopt.retrieve.entities import extract_entities
from ctxopt.types import ScoredChunk

SOURCE = (
    "def 计算面积(宽, 高):\n    return 宽 * 高\n\n\n"
    "def größe_berechnen(liste):\n    return len(liste)\n"
)


def _hits() -> list[ScoredChunk]:
    chunks = chunk_file("geometry/area.py", SOURCE, "python").chunks
    return [ScoredChunk(c, 0.5, {}, (), {}) for c in chunks]


def test_identifiers_and_words_outside_ascii_are_whole() -> None:
    found = extract_entities("fix größe_berechnen when ÄnderungsListe is empty")
    assert set(found.identifiers) == {"größe_berechnen", "ÄnderungsListe"}
    assert {"größe", "berechnen", "änderungsliste", "empty"} <= set(found.words)
    assert not any(word in {"gr", "berechnen_"} for word in found.words)


def test_ascii_tasks_read_as_before() -> None:
    found = extract_entities("Fix save_inventory in app.py when the CSVWriter fails")
    assert found.identifiers == ("save_inventory", "CSVWriter")
    assert found.words == ("save", "inventory", "app", "csvwriter", "fails")


def test_a_chinese_name_in_the_task_gives_confidence_in_the_hit_that_defines_it() -> None:
    hits = _hits()
    assert [h.chunk.name for h in hits] == ["计算面积", "größe_berechnen"]
    named = retrieval_confidence(extract_entities("计算面积 returns wrong value"), hits)
    assert named == 0.5  # three pairs of 计算面积 and returns, wrong, value: the pairs are found
    # (before: words in Chinese were not words at all, and the figure was 0)
    phrase = retrieval_confidence(extract_entities("计算面积"), hits)
    assert phrase == 1.0
    german = retrieval_confidence(extract_entities("größe_berechnen"), hits)
    assert german == 1.0
    unrelated = retrieval_confidence(extract_entities("修复网络连接"), hits)
    assert unrelated == 0.0
