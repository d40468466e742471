"""File bytes to text: the one place that decides a file's encoding.

In order: a byte-order mark (UTF-8, UTF-16, UTF-32) decides; then a declared encoding
(PEP 263 ``coding:`` in the first two lines of Python, the same magic comment in Ruby);
then UTF-8; bytes that are not valid UTF-8 are read as cp1252 (latin-1 for the few bytes
cp1252 leaves undefined) rather than replaced, and counted.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from enum import Enum

_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_DECLARING = (".py", ".pyi", ".pyw", ".rb", ".rake", ".gemspec")


class Source(Enum):
    """What decided a file's encoding."""

    BOM = "bom"
    DECLARED = "declared"
    UTF8 = "utf-8"
    FALLBACK = "fallback"  # not valid UTF-8: read as cp1252/latin-1


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    source: Source
    replaced: int = 0  # characters that could not be decoded (U+FFFD in text)
    fallback_bytes: int = 0  # bytes that were not valid UTF-8 (FALLBACK only)


def byte_order_mark(data: bytes) -> tuple[bytes, str] | None:
    """The byte order mark data starts with and the encoding it names, or None."""
    return next(((bom, encoding) for bom, encoding in _BOMS if data.startswith(bom)), None)


def decode_bytes(data: bytes, name: str = "") -> Decoded:
    """Decode a file's bytes; name (its path) says whether a coding line counts."""
    marked = byte_order_mark(data)
    if marked is not None:
        bom, encoding = marked
        return _strict_or_replace(data[len(bom) :], encoding, Source.BOM)
    declared = declared_encoding(data) if name.lower().endswith(_DECLARING) else None
    if declared:
        return _strict_or_replace(data, declared, Source.DECLARED)
    try:
        return Decoded(data.decode("utf-8"), "utf-8", Source.UTF8)
    except UnicodeDecodeError:
        pass
    bad = _invalid_utf8_bytes(data)
    return Decoded(
        data.decode("cp1252", errors="latin1_fallback"), "cp1252", Source.FALLBACK, 0, bad
    )


def declared_encoding(data: bytes) -> str | None:
    """A PEP 263 / Ruby magic-comment encoding in the first two lines, if Python knows it."""
    for line in data.split(b"\n", 2)[:2]:
        match = _CODING.match(line)
        if match:
            try:
                return codecs.lookup(match.group(1).decode("ascii")).name
            except (LookupError, UnicodeDecodeError):
                return None
        if line.strip() and not line.lstrip().startswith(b"#"):
            return None  # PEP 263: the second line counts only after a comment or blank line
    return None


def _strict_or_replace(data: bytes, encoding: str, source: Source) -> Decoded:
    try:
        return Decoded(data.decode(encoding), encoding, source)
    except UnicodeDecodeError:
        text = data.decode(encoding, errors="replace")
        genuine = data.decode(encoding, errors="ignore").count("\ufffd")  # U+FFFD in the file
        return Decoded(text, encoding, source, replaced=text.count("\ufffd") - genuine)


def _invalid_utf8_bytes(data: bytes) -> int:
    """Replacement characters UTF-8 decoding would insert (U+FFFD already in the file aside)."""
    replaced = data.decode("utf-8", errors="replace").count("\ufffd")
    return replaced - data.decode("utf-8", errors="ignore").count("\ufffd")


def _latin1_fallback(error: UnicodeError) -> tuple[str, int]:
    """cp1252 leaves five bytes undefined (0x81 0x8D 0x8F 0x90 0x9D): latin-1 maps them."""
    assert isinstance(error, UnicodeDecodeError)
    chunk = error.object[error.start : error.end]
    return bytes(chunk).decode("latin-1"), error.end


codecs.register_error("latin1_fallback", _latin1_fallback)
