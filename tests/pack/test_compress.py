"""Compression levels over one sample per language, plus fuzzing for never-raises."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxopt import tokens
from ctxopt.languages import detect_language
from ctxopt.pack.compress import (
    GRAMMAR_LANGUAGES,
    LEVELS,
    compress,
    parse_errors,
    raw_parse_errors,
    reduction_report,
    signature_stub,
)

SAMPLES = sorted((Path(__file__).parent / "samples").iterdir())
# Text inside a string literal of each sample that looks like a comment.
IN_STRING = {"json": "//not-a-comment#also"}


def _language(path: Path) -> str:
    """sample.py is stored as sample.py.sample so linters and formatters leave it alone."""
    return detect_language(path.name.removesuffix(".sample"))


CODE_SAMPLES = [p for p in SAMPLES if _language(p) not in ("json", "yaml", "toml")]


def _sample(path: Path) -> tuple[str, str]:
    return path.read_text(encoding="utf-8"), _language(path)


def test_every_grammar_language_has_a_sample() -> None:
    covered = {_language(p) for p in SAMPLES}
    assert covered == GRAMMAR_LANGUAGES


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_light_drops_plain_comments_keeps_docs_and_strings(path: Path) -> None:
    text, language = _sample(path)
    out = compress(text, language, "light")
    assert "PLAIN-COMMENT" not in out
    assert out.count("DOC-COMMENT") == text.count("DOC-COMMENT")
    assert "not-a-comment" in out
    if language in ("python", "ruby", "bash", "yaml", "toml"):
        assert "/#not-a-comment" in out
    elif language != "json":
        assert "//not-a-comment" in out


@pytest.mark.parametrize("level", ["light", "medium"])
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_no_new_parse_errors(path: Path, level: str) -> None:
    text, language = _sample(path)
    out = compress(text, language, level)  # type: ignore[arg-type]
    assert raw_parse_errors(out, language) <= raw_parse_errors(text, language)
    assert parse_errors(out, language) <= parse_errors(text, language)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_medium_is_no_larger_than_light(path: Path) -> None:
    text, language = _sample(path)
    light = compress(text, language, "light")
    medium = compress(text, language, "medium")
    assert tokens.count(medium) <= tokens.count(light) < tokens.count(text) or language == "json"
    assert not any(line != line.rstrip() for line in medium.split("\n") if "multi" not in line)


def test_trailing_comment_removal_strips_the_spaces_it_leaves() -> None:
    out = compress("x = 1   # note\ny = 2\n", "python", "light")
    assert out == "x = 1\ny = 2\n"
    out = compress("int a; /* a */\n// own line\nint b; // b\n", "c", "light")
    assert out == "int a;\nint b;\n"


def test_inline_block_comment_keeps_tokens_apart() -> None:
    out = compress("int/*x*/y = 1;\n", "c", "light")
    assert out == "int y = 1;\n"


def _shape(tree: ast.AST) -> list[tuple[str, int]]:
    """Function and class names with their nesting depth."""
    found: list[tuple[str, int]] = []

    def walk(node: ast.AST, depth: int) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.append((child.name, depth))
                walk(child, depth + 1)
            else:
                walk(child, depth)

    walk(tree, 0)
    return found


def test_medium_keeps_python_semantics() -> None:
    text = (Path(__file__).parent / "samples" / "sample.py.sample").read_text()
    out = compress(text, "python", "medium")
    compile(out, "sample.py", "exec")
    assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(text))
    assert _shape(ast.parse(out)) == _shape(ast.parse(text))
    assert "\n  " not in out.split("class Store")[0]  # indentation was re-ranked
    assert "    line  # hash in string\n        string" in out  # string lines untouched


def test_medium_keeps_semantics_of_an_indented_python_method() -> None:
    method = (
        "    def f(self, x):\n"
        "        # note\n"
        "        if x:\n\n"
        "            s = '''a\n"
        "  # b\n"
        "'''\n"
        "            return s\n"
        "        return None\n"
    )
    out = compress(method, "python", "medium")
    wrapped = "class A:\n" + method
    assert "# note" not in out and "  # b\n'''" in out
    body = ast.parse(out).body[0]
    assert ast.dump(body) == ast.dump(ast.parse(wrapped).body[0].body[0])  # type: ignore[attr-defined]


def test_medium_on_python_stdlib_module_keeps_ast() -> None:
    import json.decoder as module

    text = Path(module.__file__).read_text()
    out = compress(text, "python", "medium")
    assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(text))
    assert tokens.count(out) < tokens.count(text)


def test_yaml_medium_keeps_indentation() -> None:
    text = "a:\n  - b: 1\n    c: 2   # x\n\n  - d: 3\n"
    assert compress(text, "yaml", "medium") == "a:\n  - b: 1\n    c: 2\n  - d: 3\n"


LONG_PY = (
    "def work(items, limit):\n"
    + "".join(f"    value_{i} = compute(items[{i}], limit) * {i}\n" for i in range(30))
    + "    if limit < 0:\n        raise ValueError(limit)\n    return value_29\n"
)


def test_aggressive_reduces_a_long_function_with_line_markers() -> None:
    out = compress(LONG_PY, "python", "aggressive", start_line=40)
    assert tokens.count(out) < tokens.count(LONG_PY) / 3
    assert "def work(items, limit):" in out
    assert "raise ValueError(limit)" in out and "return value_29" in out
    markers = re.findall(r"# \.\.\. lines (\d+)-(\d+) elided", out)
    assert markers
    first, last = map(int, markers[0])
    assert first == 41  # line 2 of the chunk is file line 41
    assert LONG_PY.split("\n")[last - 40].strip().startswith("value_")


@pytest.mark.parametrize("path", CODE_SAMPLES, ids=lambda p: p.name)
def test_aggressive_reduces_every_code_sample(path: Path) -> None:
    text, language = _sample(path)
    out = compress(text, language, "aggressive", start_line=100)
    assert tokens.count(out) < 0.8 * tokens.count(compress(text, language, "medium"))
    opener = "#" if language in ("python", "ruby", "bash") else "//"
    found = re.findall(re.escape(opener) + r" \.\.\. lines? (\d+)(?:-(\d+))? elided", out)
    assert found
    rows = text.split("\n")
    for first, last in found:
        assert 100 <= int(first) <= int(last or first) < 100 + len(rows)


@pytest.mark.parametrize("path", CODE_SAMPLES, ids=lambda p: p.name)
def test_signature_stub_keeps_signature_and_docs(path: Path) -> None:
    text, language = _sample(path)
    stub = signature_stub(text, language)
    assert "elided" in stub
    assert ("DOC-COMMENT" in stub) == ("DOC-COMMENT" in text)
    assert tokens.count(stub) < tokens.count(compress(text, language, "aggressive"))


def test_signature_stub_of_python_method() -> None:
    method = (
        '    def f(self):\n        """Doc."""\n        x = 1\n        y = 2\n        return x + y\n'
    )
    stub = signature_stub(method, "python", start_line=10)
    assert stub.splitlines()[0] == "def f(self):"
    assert '"""Doc."""' in stub and "# ... lines 12-14 elided" in stub


def test_reduction_report_orders_levels() -> None:
    report = reduction_report(_sample(p) for p in CODE_SAMPLES)
    assert report["none"] == 0
    assert 0 < report["light"] <= report["medium"] < report["aggressive"] < 100


def test_unknown_language_is_left_alone_by_light() -> None:
    text = "hello   \n\n\n# world\n"
    assert compress(text, "text", "light") == text
    assert compress(text, "text", "medium") == "hello\n\n# world\n"
    assert compress(text, "python", "none") == text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace")),
        st.lists(
            st.sampled_from(
                [
                    "{",
                    "}",
                    "#",
                    "//",
                    "/*",
                    "*/",
                    '"',
                    "'''",
                    "\n",
                    "  ",
                    "\t",
                    "def f():",
                    "x = 1",
                    "if x:",
                    "return",
                    "end",
                    "<?php",
                ]
            ),
            max_size=40,
        ).map("".join),
    ),
    language=st.sampled_from(sorted(GRAMMAR_LANGUAGES | {"text", "markdown"})),
    start=st.integers(min_value=1, max_value=10_000),
)
def test_compress_never_raises(text: str, language: str, start: int) -> None:
    for level in LEVELS:
        out = compress(text, language, level, start_line=start)
        assert isinstance(out, str)
        if level in ("light", "medium") and language in GRAMMAR_LANGUAGES and text:
            try:
                before = raw_parse_errors(text, language)
            except UnicodeEncodeError:
                continue
            assert raw_parse_errors(out, language) <= before
    assert isinstance(signature_stub(text, language, start_line=start), str)


@pytest.mark.parametrize("level", ["medium", "aggressive"])
def test_a_block_comment_moves_with_its_opening_line(level: str) -> None:
    """Re-ranked indentation moved a doc comment's `/**` line left but kept its inner lines
    where they were, so ` * text` and ` */` stood right of the code they document."""
    text = (
        "  /**\n"
        "   * Returns the index of the chosen name, or -1.\n"
        "   */\n"
        "  @CheckReturnValue\n"
        "  public abstract int selectName(Options options);\n"
    )
    out = compress(text, "java", level)  # type: ignore[arg-type]
    lines = out.splitlines()
    opening = next(line for line in lines if line.lstrip().startswith("/**"))
    inner = [line for line in lines if line.lstrip().startswith("*")]
    assert inner, out
    for line in inner:  # one column right of the `/**`, as written
        assert len(line) - len(line.lstrip()) == len(opening) - len(opening.lstrip()) + 1, out
    code = next(line for line in lines if "selectName" in line)
    assert len(code) - len(code.lstrip()) == len(opening) - len(opening.lstrip()), out
