"""Is a file binary?  Told from its first bytes (pure).

Text is what a model can read once decoded: UTF-8, or a legacy 8-bit encoding such as
Latin-1 whose few high bytes are accented letters.  Binary is a NUL byte, or a head
where a large share of the bytes are not valid UTF-8 or are control characters.

UTF-16 and UTF-32 text holds NUL bytes in every ASCII character, so a byte order mark
(FF FE, FE FF, and the UTF-32 forms) makes the head decoded in that encoding, and it is
binary when more than MAX_ODD_WIDE_SHARE of its characters are controls, unassigned,
private-use or unpaired surrogates.  UTF-16 without a BOM is told
as binary: nothing sure tells it from binary data.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

# More than this share of undecodable or control bytes and the head is binary.  Latin-1
# prose has a few per cent of high bytes; compressed streams (an .ai or .pdf body) have
# about half high bytes and a tenth control bytes.
MAX_ODD_SHARE = 0.15
# Decoded UTF-16/32 text has next to no odd characters; random 16-bit units are about
# 15 % controls, unassigned, private-use or unpaired surrogates.
MAX_ODD_WIDE_SHARE = 0.05
# Control characters that text does hold: tab, newlines, vertical tab, form feed, escape
# (ANSI colours in logs).
_TEXT_CONTROLS = frozenset(b"\t\n\v\f\r\x1b")
_CONTROL_BYTES = bytes(b for b in [*range(32), 127] if b not in _TEXT_CONTROLS)
_CONTROL_TEXT = frozenset(_CONTROL_BYTES.decode("ascii"))
_ODD_CATEGORIES = frozenset({"Cc", "Cn", "Co", "Cs"})
_ESCAPED = re.compile("[\udc80-\udcff]")  # bytes that surrogateescape could not decode
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: it starts with the same bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def wide_encoding(head: bytes) -> str | None:
    """The UTF-16/32 codec named by the head's byte order mark, None without one."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return codec
    return None


def looks_binary(head: bytes) -> bool:
    """True when the first bytes of a file are not text (see the module docstring)."""
    if not head:
        return False
    codec = wide_encoding(head)
    if codec is not None:
        return _wide_is_binary(head, codec)
    if b"\0" in head:
        return True
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    undecodable = 0 if head.isascii() else _undecodable_bytes(head)
    return controls + undecodable > MAX_ODD_SHARE * len(head)


def _undecodable_bytes(head: bytes) -> int:
    """Bytes of head that are not valid UTF-8; a sequence cut at the end of head is fine."""
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    text = decoder.decode(head, final=False)
    return len(_ESCAPED.findall(text))


def _wide_is_binary(head: bytes, codec: str) -> bool:
    width = 4 if codec.startswith("utf-32") else 2
    usable = len(head) - len(head) % width
    text = head[:usable].decode(codec, errors="replace")[1:]  # drop the BOM
    if not text:
        return False
    odd = sum(1 for char in text if _odd_char(char))
    return odd > MAX_ODD_WIDE_SHARE * len(text)


def _odd_char(char: str) -> bool:
    """A control, unassigned, private-use or surrogate character, or a replaced unit:
    rare in text, about 15 % of random 16-bit units."""
    if char.isascii():
        return char in _CONTROL_TEXT
    return char == "\ufffd" or unicodedata.category(char) in _ODD_CATEGORIES
