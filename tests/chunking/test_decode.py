"""Decoding real files: BOMs, declared encodings, and bytes that are not UTF-8."""

from __future__ import annotations

from pathlib import Path

from ctxopt.chunking import chunk_file, read_source
from ctxopt.chunking.decode import Source, decode_bytes

LATIN1_PY = "# -*- coding: latin-1 -*-\ndef größe(name):\n    return name + 'ß'\n"


def test_latin1_python_with_a_coding_line_keeps_its_names(tmp_path: Path) -> None:
    target = tmp_path / "units.py"
    target.write_bytes(LATIN1_PY.encode("latin-1"))
    text, errors = read_source(str(target))
    assert text == LATIN1_PY
    assert errors == 0
    chunks = chunk_file("units.py", text, "python").chunks
    assert [c.name for c in chunks if c.kind.value == "function"] == ["größe"]
    assert "def größe(name):" in chunks[0].text


def test_a_coding_line_counts_only_in_the_first_two_lines() -> None:
    data = "#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '€'\n".encode("cp1252")
    decoded = decode_bytes(data, "tool.py")
    assert (decoded.source, decoded.encoding) == (Source.DECLARED, "cp1252")
    assert "€" in decoded.text
    late = b"x = 1\ny = 2\n# coding: latin-1\n"
    assert decode_bytes(late, "late.py").source is Source.UTF8
    after_code = b"import os\n# coding: latin-1\nz = '\xe9'\n"
    assert decode_bytes(after_code, "code.py").source is Source.FALLBACK


def test_ruby_magic_comment_and_other_languages_ignore_it() -> None:
    data = "# encoding: iso-8859-1\nputs 'grüß'\n".encode("latin-1")
    assert decode_bytes(data, "hello.rb").text.endswith("grüß'\n")
    assert decode_bytes(data, "hello.rb").source is Source.DECLARED
    assert decode_bytes(data, "hello.txt").source is Source.FALLBACK  # no coding lines in text


def test_byte_order_marks_decide(tmp_path: Path) -> None:
    source = "def naïve():\n    return '✓'\n"
    for encoding, bom_name in (
        ("utf-16", "utf-16"),
        ("utf-32", "utf-32"),
        ("utf-8-sig", "utf-8"),
    ):
        target = tmp_path / f"{bom_name}.py"
        target.write_bytes(source.encode(encoding))
        text, errors = read_source(str(target))
        assert (text, errors) == (source, 0), encoding
        assert decode_bytes(target.read_bytes()).source is Source.BOM
        chunks = chunk_file(target.name, text, "python").chunks
        assert [c.name for c in chunks] == ["naïve"]


def test_invalid_utf8_is_read_as_cp1252_and_counted(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_bytes(b"caf\xe9 \x93quoted\x94 and \x81\n")
    text, errors = read_source(str(target))
    assert text == "café “quoted” and \x81\n"
    assert errors == 4
    assert "\ufffd" not in text


def test_an_unknown_declared_encoding_falls_back_to_utf8() -> None:
    data = "# coding: klingon-8\nname = 'ü'\n".encode()
    decoded = decode_bytes(data, "alien.py")
    assert decoded.source is Source.UTF8
    assert decoded.text.endswith("'ü'\n")


def test_a_wrong_declaration_replaces_and_counts() -> None:
    data = "# coding: ascii\nname = 'ü'\n".encode()
    decoded = decode_bytes(data, "liar.py")
    assert decoded.source is Source.DECLARED
    assert decoded.replaced == 2
