"""Line-window fallback, parser failures and timeouts, reading undecodable files."""

from __future__ import annotations

import time

import pytest

from ctxopt.chunking import chunk_file, parse, read_source  # parse: the submodule
from ctxopt.chunking.numbering import split_lines
from ctxopt.types import ChunkKind

PY = "import os\n\n\ndef f(x):\n    return os.path.join(x, 'a')\n" * 3


def test_unknown_language_uses_line_windows():
    text = "".join(f"line {i} of prose text here.\n" for i in range(130))
    result = chunk_file("notes.txt", text, "text")
    assert result.fallback_reason == ""
    assert [(c.start_line, c.end_line) for c in result.chunks] == [(1, 60), (61, 120), (121, 130)]
    assert [c.name for c in result.chunks] == ["notes.txt", "notes.txt#2", "notes.txt#3"]
    assert {c.kind for c in result.chunks} == {ChunkKind.DOC}


def test_code_like_text_is_module_kind():
    text = "all: build\n\nbuild:\n\tgcc -o app main.c $(CFLAGS) -Wall\n"
    chunks = chunk_file("Makefile", text, "text").chunks
    assert [c.kind for c in chunks] == [ChunkKind.MODULE]


def test_zero_timeout_falls_back_to_lines():
    result = chunk_file("m.py", PY, "python", timeout_s=0)
    assert result.fallback_reason == "timeout"
    assert result.chunks[0].kind == ChunkKind.MODULE
    assert result.chunks[0].text == "\n".join(PY.splitlines())


def test_slow_parse_times_out(monkeypatch):
    real_monotonic = time.monotonic
    calls = {"n": 0}

    def clock() -> float:  # the second reading is past any deadline
        calls["n"] += 1
        return real_monotonic() + (0 if calls["n"] == 1 else 3600)

    monkeypatch.setattr(parse.time, "monotonic", clock)
    big = "x = 1\n" * 50_000
    result = chunk_file("big.py", big, "python", timeout_s=1.0)
    assert result.fallback_reason == "timeout"
    assert result.chunks and result.chunks[-1].end_line == 50_000


def test_parser_exception_falls_back(monkeypatch):
    def boom(language: str, source: bytes, timeout_s: float):
        raise RuntimeError("grammar exploded")

    monkeypatch.setattr("ctxopt.chunking.parse_source", boom)
    result = chunk_file("m.py", PY, "python")
    assert result.fallback_reason.startswith("parse_error: RuntimeError: grammar exploded")
    assert [c.start_line for c in result.chunks] == [1]


def test_mostly_error_tree_falls_back():
    garbage = "}}} ))) ((( {{{ ]]] ;;; @@@ !!! \n" * 40
    result = chunk_file("bad.go", garbage, "go")
    assert result.fallback_reason.startswith("parse_error")
    assert result.chunks


def test_language_without_grammar(monkeypatch):
    monkeypatch.setattr(parse, "_parser", lambda language, grammar: None)
    result = chunk_file("m.rs", "fn main() {}\n", "rust")
    assert result.fallback_reason == "no_grammar"
    assert [c.kind for c in result.chunks] == [ChunkKind.MODULE]


def test_read_source_counts_undecodable_bytes_and_strips_bom(tmp_path):
    path = tmp_path / "a.py"
    path.write_bytes(b"\xef\xbb\xbfx = '\xff\xfe'\ny = '\xe2\x9c\x93 \xef\xbf\xbd'\n")
    text, errors = read_source(str(path))
    assert text == "x = '\ufffd\ufffd'\ny = '\u2713 \ufffd'\n"
    assert errors == 2
    clean = tmp_path / "b.py"
    clean.write_text("ok = 1\n", encoding="utf-8")
    assert read_source(str(clean)) == ("ok = 1\n", 0)


def test_odd_line_breaks_keep_text_exact():
    text = "import a\n\x0c\ndef f():\n    return 1\r\ndef g():\n    return '\u2028'\n"
    chunks = chunk_file("m.py", text, "python").chunks
    lines = text.replace("\r\n", "\n").split("\n")  # only \n (or \r\n) ends a line
    for c in chunks:
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
    assert by_kind_names(chunks) >= {"f", "g"}
    assert {("f", 3), ("g", 5)} <= {(c.name, c.start_line) for c in chunks}


def by_kind_names(chunks) -> set[str]:
    return {c.name for c in chunks if c.kind == ChunkKind.FUNCTION}


@pytest.mark.parametrize("language", ["python", "go", "rust", "cpp", "ruby", "markdown", "yaml"])
def test_never_raises_on_binary_junk(language: str):
    junk = "".join(chr(c) for c in range(1, 2000)) * 3
    result = chunk_file("junk", junk, language)
    lines = split_lines(junk)
    for c in result.chunks:
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line]) or c.summary


def test_is_prose_counts_ascii_and_other_text_alike() -> None:
    from ctxopt.chunking.lines import is_prose

    words = ["The cache keeps, for each record, its owner's name.", "It is refreshed daily."]
    assert is_prose(words)
    assert is_prose([line.replace("cache", "cäche") for line in words])
    code = ["x = {'a': [1, 2, 3]}  # 42", "y = x['a'][0] * 7 + 9"]
    assert not is_prose(code)
    assert not is_prose([line + " é" for line in code])
    assert is_prose(["", "   "])
