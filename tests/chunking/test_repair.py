"""Files the grammar alone reads as ERROR nodes are chunked by definitions from a stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.chunking import chunk_file, parse
from ctxopt.chunking.repair import (
    longest_branches,
    separated_signatures,
    stand_in,
    without_lone_macros,
)
from ctxopt.types import ChunkKind
from tests.chunking.conftest import many_methods

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
        ("function", "grow", 35, 43),  # from its `#if` to its closing brace
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
    for name, grammar in (
        ("conditional.c", "c"), ("overloads.ts", "typescript"), ("macro_class.hpp", "cpp"),
        ("conditional.cs", "csharp"),
    ):  # fmt: skip
        source = (FIXTURES / name).read_bytes()
        repaired = stand_in(grammar, source)
        assert repaired is not None and len(repaired) == len(source)
        assert [i for i, b in enumerate(repaired) if b == 10] == [
            i for i, b in enumerate(source) if b == 10
        ]


def test_longest_branches_keeps_the_first_of_equal_branches_and_blanks_the_rest() -> None:
    source = b"#if A\na();\n#elif B\nb();\n#else\nc();\n#endif\nd();\n"
    assert longest_branches(source) == b"     \na();\n       \n    \n     \n    \n      \nd();\n"
    wrapped = b'#ifdef __cplusplus\nextern "C" {\n#else\nint c;\n#endif\n'
    assert b"extern" in longest_branches(wrapped)
    assert b"extern" not in longest_branches(wrapped, cplusplus=False)
    assert b"int c;" in longest_branches(wrapped, cplusplus=False)
    continued = b"#if defined(A) && \\\n    defined(B)\nx();\n#endif\n"
    lines = longest_branches(continued).split(b"\n")
    assert [line.strip() for line in lines[:3]] == [b"", b"", b"x();"]


def test_longest_branches_keeps_the_longest_branch_of_each_conditional() -> None:
    """`#if TARGET_OS_IPHONE` stubs, then `#else` the implementation: the implementation is
    kept; a conditional nested in the kept branch chooses its own longest branch."""
    source = (
        b"#if IPHONE\nstub();\n#else\nreal();\n#ifdef X\nx();\n#else\ny1();\ny2();\n#endif\n"
        b"more();\n#endif\nend();\n"
    )
    kept = [line.strip() for line in longest_branches(source).split(b"\n") if line.strip()]
    assert kept == [b"real();", b"y1();", b"y2();", b"more();", b"end();"]
    assert len(longest_branches(source)) == len(source)
    unclosed = b"#if A\na();\n#else\nb();\nc();\n"
    assert [ln.strip() for ln in longest_branches(unclosed).split(b"\n") if ln.strip()] == [
        b"b();",
        b"c();",
    ]
    wrapped = b'#ifdef __cplusplus\nextern "C" {\nint a;\nint b;\n#else\nint c;\n#endif\n'
    assert b"extern" not in longest_branches(wrapped, cplusplus=False)
    assert b"extern" in longest_branches(wrapped)


def test_separated_signatures_only_after_a_line_that_ends_a_type() -> None:
    source = b"interface I {\n  (a: A): B\n  <T>(t: T): T\n  m(\n    (x) => 1,\n  ): void\n}\n"
    assert separated_signatures(source) == (
        b"interface I {\n  (a: A): B\n ;<T>(t: T): T\n  m(\n    (x) => 1,\n  ): void\n}\n"
    )
    assert stand_in("python", b"x = 1\n") is None
    assert stand_in("c", b"int x;\n") is None  # nothing to repair


def test_cpp_class_behind_macros_alone_on_their_lines_is_one_class() -> None:
    """`LEDGER_NAMESPACE_BEGIN`, a template head, an access specifier and an attribute
    written as macros broke the class into stray statements; blanked in the stand-in, the
    class is whole."""
    assert _definitions("macro_class.hpp", "cpp") == [("class", "key_path", 9, 76)]


def test_a_tree_with_broken_stretches_is_read_from_the_stand_in_when_it_reads_better() -> None:
    """The grammar reads most of this file, so it is not a parse failure, but a conditional
    inside a statement breaks one function; the stand-in reads every function."""
    text = (
        "int ready(int fd) {\n  return fd > 0;\n}\n\n"
        "int drain(int fd) {\n  if (fd < 0)\n#ifdef SHUT\n    shut(fd);\n#else\n"
        "    close(fd);\n#endif\n  else\n    flush(fd);\n  return 0;\n}\n\n"
        + "".join(f"int step_{i}(int fd) {{\n  return ready(fd) + {i};\n}}\n\n" for i in range(12))
    )
    tree = parse.parse("c", text.encode(), 5.0)  # no ParseFailure: most of it reads
    assert tree.root_node.has_error and parse.error_bytes(tree) > 0
    result = chunk_file("drain.c", text, "c")
    assert result.fallback_reason == ""
    functions = [(c.name, c.start_line, c.end_line) for c in result.chunks if c.name == "drain"]
    assert functions == [("drain", 5, 15)]


def test_without_lone_macros_blanks_only_upper_case_macros_alone_on_a_line() -> None:
    source = (
        b"NS_BEGIN\n  TPL_HEAD  // a template head\n  PRIVATE_UNLESS_TESTED:\n"
        b"  CONST_A,\n  Plain_Name\n  ok:\n"
        b"  ATTR_NON_NULL(3)\n  int size(const char* s) const;\n"
        b"TEST_CASE(Pool, Drain)  // a test\n\n{\n  CHECK_OK(drain());\n}\n"
        b"HALF_OPEN(a,\n  b)\nNS_END\n"
        b"switch (kind) {\n  KIND_MAP(XX)\n  default:\n    return 0;\n}\n"
    )
    blanked = [
        number
        for number, (old, new) in enumerate(
            zip(source.split(b"\n"), without_lone_macros(source).split(b"\n"), strict=True), 1
        )
        if old != new
    ]
    assert blanked == [1, 2, 3, 7, 16, 18]
    rows = without_lone_macros(source).split(b"\n")
    assert rows[6] == b"  [[____________]]"  # over a declaration: an attribute
    assert rows[17] == b" " * 14  # an X-macro list before a label: blanked
    assert len(without_lone_macros(source)) == len(source)


def test_cpp_members_are_named_through_references_and_conversions() -> None:
    """`T& back() const` is `back`, `operator T() const` is `operator T` and
    `K& operator/=(std::size_t)` is `operator/=`; they were `& back() const`, `() const` and
    `size_t index)`.  An attribute macro over a member starts the member's chunk."""
    body = "".join(f"        total += step_{i}(index);\n" for i in range(60))
    members = [
        "    KEY_NON_NULL(1)\n    const key_t& back() const\n    {\n"
        + body
        + "        return last;\n    }\n",
        "    operator key_t() const\n    {\n" + body + "        return text;\n    }\n",
        "    key_path& operator/=(std::size_t index)\n    {\n"
        + body
        + "        return *this;\n    }\n",
        "    key_path&& moved()\n    {\n" + body + "        return std::move(*this);\n    }\n",
    ]
    text = "class key_path\n{\n  public:\n" + "\n".join(members) + "};\n"
    chunks = chunk_file("key_path.hpp", text, "cpp").chunks
    named = [c.qualified_name for c in chunks if c.kind is ChunkKind.METHOD]
    assert next(c.start_line for c in chunks if c.kind is ChunkKind.METHOD) == 4  # its attribute
    assert named == [
        "key_path.back", "key_path.operator key_t", "key_path.operator/=", "key_path.moved",
    ]  # fmt: skip


def test_csharp_method_header_under_conditional_compilation_is_chunked_by_method() -> None:
    """Two headers of one method under `#if`/`#else` broke the class's tree: its methods were
    module pieces.  From the stand-in (the first branch kept) each method is a chunk."""
    text = (FIXTURES / "conditional.cs").read_text()
    steps = many_methods(
        "    public int Step{i}(int x)\n    {{\n",
        '        x = Mix(x, {j}, "step {i} part {j}");\n',
        "        return x;\n    }\n\n",
    )
    text = text.replace("    public int PositionOf", steps + "    public int PositionOf")
    original = parse.parse("csharp", text.encode(), 5.0)
    repaired = stand_in("csharp", text.encode())
    assert repaired is not None and parse.error_bytes(original) > 0
    assert parse.error_bytes(parse.parse("csharp", repaired, 5.0)) == 0
    methods = [c.qualified_name for c in chunk_file("b.cs", text, "csharp").chunks
               if c.kind is ChunkKind.METHOD]  # fmt: skip
    assert methods == [
        "EntryBinder.Bind", "EntryBinder.Step0", "EntryBinder.Step1", "EntryBinder.Step2",
        "EntryBinder.Step3", "EntryBinder.PositionOf",
    ]  # fmt: skip


def test_c_functions_of_a_conditional_else_branch_are_chunked_as_functions() -> None:
    """libuv's fsevents.c: `#if TARGET_OS_IPHONE` a few stubs, `#else` the whole macOS
    implementation.  With the first branch kept, the implementation was blanked in the
    stand-in and indexed as line windows; its functions are now chunks of their own."""
    stubs = "".join(f"int uv__stub_{i}(void) {{\n  return 0;\n}}\n\n" for i in range(2))
    real = "".join(
        f"static int uv__event_{i}(uv_loop_t* loop, int fd) {{\n"
        + "".join(f"  loop->counter += fd * {j};\n" for j in range(12))
        + "  return loop->counter;\n}\n\n"
        for i in range(6)
    )
    split = (  # a loop macro before a block, as in fsevents.c: the grammar's tree breaks
        "static void uv__each(uv_loop_t* loop) {\n  struct uv__queue* q;\n"
        "  uv__queue_foreach(q, &loop->handles) {\n    uv__use(q);\n  }\n}\n\n"
    )
    text = f'#include "uv.h"\n\n#if TARGET_OS_IPHONE\n{stubs}#else\n{real}{split}#endif\n'
    assert parse.error_bytes(parse.parse("c", text.encode(), 5.0)) > 0
    chunks = chunk_file("fsevents.c", text, "c").chunks
    functions = {c.qualified_name for c in chunks if c.kind is ChunkKind.FUNCTION}
    assert {f"uv__event_{i}" for i in range(6)} <= functions
    event = next(c for c in chunks if c.qualified_name == "uv__event_3")
    assert event.text.startswith("static int uv__event_3(") and event.text.rstrip().endswith("}")
