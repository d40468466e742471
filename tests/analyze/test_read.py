"""Reading documents: text, markdown, PDF, HTML, stdin, several files; bad input refused."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ctxopt.analyze.read import DocumentError, Kind, read_document
from ctxopt.errors import UsageError
from docmaker import blank_pdf, encrypted_pdf, text_pdf
from helpers import ROOT

DOCS = ROOT / "fixtures" / "documents"


def test_the_shipped_pdf_gives_its_text_layer_page_by_page() -> None:
    document = read_document([str(DOCS / "agreement.pdf")])
    assert document.parts[0].kind is Kind.PDF
    assert "Northwind Traders supplies industrial sensors" in document.text
    assert document.text.index("1. Scope") < document.text.index("5. Term and termination")
    assert "\n\n3. Liability" in document.text  # pages are paragraphs


def test_the_shipped_html_page_keeps_text_and_headings_not_script_or_style() -> None:
    text = read_document([str(DOCS / "handbook.html")]).text
    assert text.startswith("# Field Service Handbook\n")
    assert "\n## Safety\n" in text
    assert "Faults are logged in the maintenance system within 24 hours & reviewed" in text
    for hidden in ("tracking-code", "font-family", "must not appear", "Home Docs"):
        assert hidden not in text


def test_several_files_are_one_document_with_a_header_each(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nAlpha text.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("Beta text.\n", encoding="utf-8")
    document = read_document([str(tmp_path / "a.md"), str(tmp_path / "b.txt")])
    assert document.text.startswith(f"# File: {tmp_path / 'a.md'}\n\n# A")
    assert f"# File: {tmp_path / 'b.txt'}\n\nBeta text." in document.text
    first, second = document.parts
    assert document.text[second.start : second.end].endswith("Beta text.\n")
    assert first.end < second.start


def test_stdin_is_sniffed_for_pdf_and_html() -> None:
    pdf = read_document(["-"], io.BytesIO(text_pdf([["From stdin."]])))
    assert pdf.parts[0].kind is Kind.PDF and "From stdin." in pdf.text
    html = read_document(["-"], io.BytesIO(b"<!doctype html><p>Hello <i>there</i></p>"))
    assert html.parts[0].kind is Kind.HTML and html.text.strip() == "Hello there"
    plain = read_document(["-"], io.BytesIO("plain text, café\r\n".encode()))
    assert plain.text == "plain text, café\n"


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("scan.pdf", blank_pdf(), "no text layer"),
        ("locked.pdf", encrypted_pdf(), "encrypted"),
        ("broken.pdf", b"%PDF-1.4\nthis is not really a pdf", "not a readable PDF"),
        ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), "binary"),
        ("empty.txt", b"  \n\n ", "empty"),
        ("empty.html", b"<html><body><script>x()</script></body></html>", "empty"),
    ],
    ids=["image-only-pdf", "encrypted-pdf", "broken-pdf", "binary", "empty-text", "empty-html"],
)
def test_unreadable_documents_are_one_clear_error(
    tmp_path: Path, name: str, data: bytes, words: str
) -> None:
    (tmp_path / name).write_bytes(data)
    with pytest.raises(DocumentError, match=words):
        read_document([str(tmp_path / name)])


def test_missing_files_and_folders_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such file"):
        read_document([str(tmp_path / "nope.pdf")])
    with pytest.raises(UsageError, match="folder"):
        read_document([str(tmp_path)])
    with pytest.raises(UsageError, match="once"):
        read_document(["-", "-"], io.BytesIO(b"x"))
