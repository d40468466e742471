"""Documents to text: .txt/.md as text, .pdf through pypdf, .html through selectolax, '-' for stdin.

Several inputs are read as one document with a header per file.  Bad input is a
``DocumentError`` with one line a user can act on, never a traceback.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import BinaryIO

from ctxopt.chunking.decode import byte_order_mark
from ctxopt.errors import CtxoptError, UsageError

STDIN = "-"
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
_SNIFF = 8192
_DROPPED_TAGS = ["script", "style", "noscript", "template", "svg", "iframe", "head", "nav"]
_BLOCK_TAGS = frozenset(
    "p div section article main aside header footer nav li ul ol dl dt dd table tr "
    "blockquote pre figure figcaption form fieldset address br hr title".split()
)
_CELLS = frozenset({"td", "th"})
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_SPACES = re.compile(r"[ \t\f\v\r]+")
_BLANKS = re.compile(r"\n\s*\n\s*")


class DocumentError(CtxoptError):
    """An input that holds no readable text (binary, encrypted, image-only, empty)."""

    kind = "document"


class Kind(str, Enum):
    TEXT = "text"
    PDF = "pdf"
    HTML = "html"


@dataclass(frozen=True)
class Part:
    """One input file inside the document: where its text starts and ends."""

    name: str
    kind: Kind
    start: int
    end: int


@dataclass(frozen=True)
class Document:
    text: str
    parts: tuple[Part, ...]


def read_document(sources: Sequence[str], stdin: BinaryIO | None = None) -> Document:
    """One document from the given paths ('-' = stdin); a header per file when several."""
    if not sources:
        raise UsageError("give a document to analyze (a path, or - for stdin)")
    if sum(1 for s in sources if s == STDIN) > 1:
        raise UsageError("stdin (-) can be given once")
    pieces: list[str] = []
    parts: list[Part] = []
    offset = 0
    for source in sources:
        name = "<stdin>" if source == STDIN else source
        data = _read_bytes(source, stdin)
        kind = _kind_of(source, data)
        text = _to_text(name, kind, data)
        if len(sources) > 1:
            text = f"# File: {name}\n\n{text}"
        if pieces:
            pieces.append("\n\n")
            offset += 2
        pieces.append(text)
        parts.append(Part(name, kind, offset, offset + len(text)))
        offset += len(text)
    document = Document("".join(pieces), tuple(parts))
    if not document.text.strip():
        raise DocumentError("the document is empty: no text to analyze")
    return document


def _read_bytes(source: str, stdin: BinaryIO | None) -> bytes:
    """The bytes of source, its first ones checked before the rest is read: binary data (a
    200 MB file of NUL bytes, /dev/zero) is refused without being read whole."""
    name = "<stdin>" if source == STDIN else source
    if source == STDIN:
        if stdin is None:
            raise UsageError("no stdin to read from")
        head = stdin.read(_SNIFF)
        _refuse_binary(name, _kind_of(source, head), head)
        return head + stdin.read()
    path = Path(source)
    if not path.exists():
        raise UsageError(f"no such file: {source}")
    if path.is_dir():
        raise UsageError(f"{source} is a folder; give document files")
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF)
            _refuse_binary(name, _kind_of(source, head), head)
            return head + handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror or exc}") from exc


def _wide_encoding(data: bytes) -> tuple[bytes, str] | None:
    """The mark and encoding of UTF-16 or UTF-32 text (NUL bytes between its letters)."""
    marked = byte_order_mark(data)
    return marked if marked is not None and marked[1] != "utf-8" else None


def _refuse_binary(name: str, kind: Kind, head: bytes) -> None:
    if kind is Kind.TEXT and _wide_encoding(head) is None and _binary(head):
        raise DocumentError(f"{name} looks binary, not text (give .txt, .md, .pdf or .html)")


def _binary(sample: bytes) -> bool:
    return b"\x00" in sample or _control_share(sample) > 0.1


def _kind_of(source: str, data: bytes) -> Kind:
    head = data[:_SNIFF].lstrip()
    if head.startswith(b"%PDF-") or source.lower().endswith(".pdf"):
        return Kind.PDF
    if source.lower().endswith(HTML_SUFFIXES):
        return Kind.HTML
    lowered = head[:200].lower()
    if lowered.startswith((b"<!doctype html", b"<html")):
        return Kind.HTML
    return Kind.TEXT


def _to_text(name: str, kind: Kind, data: bytes) -> str:
    if kind is Kind.PDF:
        text = pdf_text(name, data)
    else:
        text = _decode(name, data)
        if kind is Kind.HTML:
            text = html_text(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise DocumentError(f"{name} is empty: no text to analyze")
    return text


def _decode(name: str, data: bytes) -> str:
    wide = _wide_encoding(data)
    if wide is not None:
        bom, encoding = wide
        return data[len(bom) :].decode(encoding, errors="replace")
    if _binary(data[:_SNIFF]):
        raise DocumentError(f"{name} looks binary, not text (give .txt, .md, .pdf or .html)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _control_share(sample: bytes) -> float:
    if not sample:
        return 0.0
    control = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 12, 13))
    return control / len(sample)


def pdf_text(name: str, data: bytes) -> str:
    """The text layer of a PDF, pages separated by blank lines."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _opens_without_password(reader):
            raise DocumentError(f"{name} is an encrypted PDF; decrypt it first (qpdf --decrypt)")
        pages = [page.extract_text() or "" for page in reader.pages]
    except DocumentError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise DocumentError(f"{name} is not a readable PDF: {exc}") from exc
    text = "\n\n".join(page.strip() for page in pages if page.strip())
    if not text.strip():
        raise DocumentError(
            f"{name} has no text layer ({len(pages)} pages, image-only or scanned); "
            "run OCR first (for example ocrmypdf)"
        )
    return text


def _opens_without_password(reader: object) -> bool:
    try:
        return bool(reader.decrypt(""))  # type: ignore[attr-defined]
    except Exception:  # a cipher pypdf cannot open without extra packages
        return False


def html_text(markup: str) -> str:
    """Readable text of an HTML page: headings as markdown, blocks as paragraphs."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(markup)
    title_node = tree.css_first("title")
    title = title_node.text(strip=True) if title_node is not None else ""
    first_heading = tree.css_first("h1")
    if first_heading is not None and first_heading.text(strip=True) == title:
        title = ""
    tree.strip_tags(_DROPPED_TAGS)
    root = tree.body or tree.root
    out: list[str] = [f"# {title}\n\n"] if title else []
    if root is not None:
        for node in root.traverse(include_text=True):
            tag = node.tag or ""
            if tag == "-text":
                out.append(node.text_content or "")
            elif tag in _HEADINGS:
                out.append("\n\n" + "#" * _HEADINGS[tag] + " ")
            elif tag in _BLOCK_TAGS:
                out.append("\n\n")
            elif tag in _CELLS:
                out.append(" ")
    text = _SPACES.sub(" ", "".join(out))
    text = _BLANKS.sub("\n\n", text)
    return "\n".join(line.strip() for line in text.split("\n")).strip() + "\n"
