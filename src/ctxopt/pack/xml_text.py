"""Text for an XML prompt that any XML parser reads back: well-formed whatever a file holds.

Code goes in CDATA sections, where `<` and `&` need no escaping, so the model reads it as
written; the one sequence a CDATA section cannot hold, `]]>`, is split across two sections.
Characters XML 1.0 forbids anywhere (C0 controls other than tab, newline and carriage return,
lone surrogates, U+FFFE and U+FFFF) become U+FFFD.  A carriage return, which a parser would
turn into a newline, is written as a character reference outside the CDATA section.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_CDATA_END = "]]>"


def xml_chars(text: str) -> str:
    """text with every character XML 1.0 forbids replaced by U+FFFD."""
    return _FORBIDDEN.sub(REPLACEMENT, text)


def xml_escape(text: str) -> str:
    """Character data: `&`, `<` and the `>` of `]]>` as entities, `\\r` as a reference
    (other `>` and quotes stay as written: they need no escape outside attributes)."""
    return (
        xml_chars(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(_CDATA_END, "]]&gt;")
        .replace("\r", "&#13;")
    )


def xml_cdata(text: str) -> str:
    """text as CDATA sections: read back by a parser, it is text (forbidden characters aside)."""
    safe = xml_chars(text).replace(_CDATA_END, "]]" + _CDATA_END + "<![CDATA[>")
    safe = safe.replace("\r", _CDATA_END + "&#13;<![CDATA[")
    return f"<![CDATA[{safe}]]>"


def xml_comment(text: str) -> str:
    """A comment holding text: no `--` inside and no `-` at its end, as XML requires."""
    safe = re.sub("-(?=-)", "- ", xml_chars(text))
    return f"<!-- {safe} -->"
