"""Files the grammar alone reads as ERROR nodes are chunked by definitions from a stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.chunking import chunk_file, parse
from ctxopt.chunking.repair import first_branches, separated_signatures, stand_in
from ctxopt.types import ChunkKind

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "repair"


def _definitions(name: str, language: str) -> list[tuple[str, str, int, int]]:
    text = (FIXTURES / name).read_text()
    result = chunk_file(name, text, language)
    assert result.fallback_reason == ""
    for chunk in result.chunks:  # the text shown is the original, not the stand-in
        assert chunk.text == "\n".join(text.splitlines()[chunk.start_line - 1 : chunk.end_line])
    return [
        (c.kind.value, c.name, c.start_line, c.end_line)
        for c in result.chunks
        if c.kind is not ChunkKind.MODULE
    ]


@pytest.mark.parametrize(
    ("name", "language"), [("conditional.c", "c"), ("overloads.ts", "typescript")]
)
def test_the_grammar_alone_fails_on_the_fixture(name: str, language: str) -> None:
    with pytest.raises(parse.ParseFailure, match="parse_error"):
        parse.parse(language, (FIXTURES / name).read_bytes(), 5.0)


def test_c_with_conditionals_inside_statements_is_chunked_by_function() -> None:
    assert _definitions("conditional.c", "c") == [
        ("class", "pool", 10, 10),
        ("function", "release", 12, 23),
        ("function", "usage_text", 25, 33),
        ("function", "grow", 36, 43),  # from its kept branch to its closing brace
        ("function", "pool_drain", 45, 50),
    ]


def test_typescript_call_signatures_without_separators_are_chunked_by_declaration() -> None:
    assert _definitions("overloads.ts", "typescript") == [
        ("type", "Handler", 1, 4),
        ("interface", "Route", 6, 46),
        ("class", "Router", 48, 54),
        ("function", "joinPaths", 56, 58),
    ]


def test_a_stand_in_keeps_every_offset_and_line_break() -> None:
    for name, grammar in (("conditional.c", "c"), ("overloads.ts", "typescript")):
        source = (FIXTURES / name).read_bytes()
        repaired = stand_in(grammar, source)
        assert repaired is not None and len(repaired) == len(source)
        assert [i for i, b in enumerate(repaired) if b == 10] == [
            i for i, b in enumerate(source) if b == 10
        ]


def test_first_branches_keeps_the_first_branch_and_blanks_the_rest() -> None:
    source = b"#if A\na();\n#elif B\nb();\n#else\nc();\n#endif\nd();\n"
    assert first_branches(source) == b"     \na();\n       \n    \n     \n    \n      \nd();\n"
    wrapped = b'#ifdef __cplusplus\nextern "C" {\n#else\nint c;\n#endif\n'
    assert b"extern" in first_branches(wrapped)
    assert b"extern" not in first_branches(wrapped, cplusplus=False)
    assert b"int c;" in first_branches(wrapped, cplusplus=False)
    continued = b"#if defined(A) && \\\n    defined(B)\nx();\n#endif\n"
    lines = first_branches(continued).split(b"\n")
    assert [line.strip() for line in lines[:3]] == [b"", b"", b"x();"]


def test_separated_signatures_only_after_a_line_that_ends_a_type() -> None:
    source = b"interface I {\n  (a: A): B\n  <T>(t: T): T\n  m(\n    (x) => 1,\n  ): void\n}\n"
    assert separated_signatures(source) == (
        b"interface I {\n  (a: A): B\n ;<T>(t: T): T\n  m(\n    (x) => 1,\n  ): void\n}\n"
    )
    assert stand_in("python", b"x = 1\n") is None
    assert stand_in("c", b"int x;\n") is None  # nothing to repair
