"""Golden files for each prompt format, from real chunks of fixtures/sample_repo.

Ranking does not enter: the chunks are chosen by hand, so the files change only when
rendering does.  A missing or different file fails with a diff; run with
CTXOPT_UPDATE_GOLDEN=1 to rewrite them after a deliberate change.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.languages import detect_language
from ctxopt.pack.content import chunk_content
from ctxopt.pack.render import RenderInput, group_by_file, render
from ctxopt.types import Choice, Fidelity, PickReason, ScoredChunk
from goldentools import ENV_UPDATE, check_golden
from helpers import ROOT, SAMPLE_REPO

GOLDEN = ROOT / "tests" / "golden"
PICKS = {
    "inventory/storage.py": ("save_inventory", "load_inventory"),
    "web/src/format.ts": ("formatCents",),
}


def choices() -> list[Choice]:
    out: list[Choice] = []
    score = 1.0
    for path, names in PICKS.items():
        text = (SAMPLE_REPO / path).read_text()
        for chunk in chunk_file(path, text, detect_language(path)).chunks:
            if chunk.name in names:
                fidelity = Fidelity.FULL if chunk.name != "load_inventory" else Fidelity.SIGNATURE
                content = chunk_content(chunk, fidelity, "none")
                hit = ScoredChunk(chunk, round(score, 2), {}, ("test pick",), {})
                out.append(Choice(hit, fidelity, content, 0, PickReason.SCORE))
                score -= 0.1
    return out


def render_input(line_numbers: bool) -> RenderInput:
    picked = choices()
    groups = tuple(group_by_file(picked))
    return RenderInput(
        repo_name="sample_repo",
        task="fix save_inventory when the file is missing",
        groups=groups,
        elsewhere=(),
        overview="inventory/  (5 files: python)\nweb/src/  (2 files: typescript)",
        shown_files=len(groups),
        total_files=14,
        repo_tokens=2918,
        line_numbers=line_numbers,
    )


@pytest.mark.parametrize(
    ("fmt", "line_numbers", "suffix"),
    [("markdown", False, "md"), ("xml", False, "xml"), ("plain", False, "txt"),
     ("markdown", True, "numbered.md")],
)  # fmt: skip
def test_golden(fmt: str, line_numbers: bool, suffix: str) -> None:
    produced = render(render_input(line_numbers), fmt)
    check_golden(GOLDEN / f"pack.{suffix}", produced)


HOSTILE = "x = '</document_content></context>]]>' if a < b && c else \x01 ]]]]> <!-- -- -->"


def test_xml_is_well_formed_whatever_the_code_holds() -> None:
    data = render_input(False)
    first = data.groups[0].choices[0]
    hostile = Choice(first.hit, first.fidelity, HOSTILE, 0, PickReason.SCORE)
    group = replace(data.groups[0], path="a&b<c>.py", entries=((hostile,),))
    task = "why does a < b && c ]]> fail \x02 here"
    produced = render(replace(data, groups=(group,), task=task), "xml")
    root = ElementTree.fromstring(produced)  # a real parser: raises on malformed XML
    assert [child.tag for child in root] == ["context", "task", "instructions"]
    documents = root.findall("context/documents/document")
    assert len(documents) == 1
    assert documents[0].findtext("source") == "a&b<c>.py"
    code = documents[0].findtext("document_content")
    assert code is not None
    assert code.strip("\n") == HOSTILE.replace("\x01", "\ufffd")
    assert root.findtext("task") == "\n" + task.replace("\x02", "\ufffd") + "\n"


def test_a_missing_golden_file_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_UPDATE, raising=False)
    missing = tmp_path / "pack.md"
    with pytest.raises(pytest.fail.Exception, match="missing"):
        check_golden(missing, "produced")
    assert not missing.exists()
    missing.write_text("expected\n")
    with pytest.raises(pytest.fail.Exception, match=r"(?s)-expected.*\+produced"):
        check_golden(missing, "produced\n")
