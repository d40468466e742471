"""Hypothesis strategies for fuzzing: generated source in several languages, real samples,
and the mutations hostile files show (truncation, stray bytes, lost brackets, odd unicode,
very long lines, deep nesting).  FUZZ_SCALE multiplies every test's example count."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ctxopt.chunking.decode import decode_bytes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "languages"
SCALE = max(1, int(os.environ.get("FUZZ_SCALE", "1") or "1"))


def fuzz_settings(examples: int) -> settings:
    """A test's fixed example count; derandomized (the same examples every run) unless
    FUZZ_SCALE asks for more, then random examples, many times the count."""
    return settings(
        max_examples=examples * SCALE,
        derandomize=SCALE == 1,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )


@dataclass(frozen=True)
class Syntax:
    """Line templates of one brace language ({n}: a name, {k}: a number, {e}: an expression)."""

    ext: str
    function: str
    record_open: str  # a class, struct or interface, closed by record_close
    record_close: str
    method: str
    branch: str
    loop: str
    statement: str
    exit: str
    comment: str


BRACES = {
    "typescript": Syntax(
        ".ts",
        "export function {n}(x: number): number {{",
        "class {N} {{",
        "}}",
        "{n}(x: number): number {{",
        "if (x > {k}) {{",
        "for (let i = 0; i < {k}; i++) {{",
        "const v{k} = {e};",
        "return {e};",
        "// {t}",
    ),
    "go": Syntax(
        ".go",
        "func {n}(x int) int {{",
        "type {N} struct {{\n\tV int\n}}\n\nfunc (s *{N}) Get() int {{",
        "    return 0\n}}",
        "if s.V > 0 {{",
        "if x > {k} {{",
        "for i := 0; i < {k}; i++ {{",
        "v{k} := {e}",
        "return {e}",
        "// {t}",
    ),
    "rust": Syntax(
        ".rs",
        "pub fn {n}(x: i64) -> i64 {{",
        "struct {N} {{ v: i64 }}\n\nimpl {N} {{",
        "}}",
        "fn {n}(&self, x: i64) -> i64 {{",
        "if x > {k} {{",
        "for i in 0..{k} {{",
        "let v{k} = {e};",
        "return {e};",
        "/// {t}",
    ),
    "java": Syntax(
        ".java",
        "public static int {n}(int x) {{",
        "public class {N} {{",
        "}}",
        "public int {n}(int x) {{",
        "if (x > {k}) {{",
        "for (int i = 0; i < {k}; i++) {{",
        "int v{k} = {e};",
        "return {e};",
        "/* {t} */",
    ),
    "c": Syntax(
        ".c",
        "int {n}(int x) {{",
        "struct {N} {{\n    int v;\n}};\n\nint {N}_get(int x) {{",
        "    return 0;\n}}",
        "if (x > 0) {{",
        "if (x > {k}) {{",
        "for (int i = 0; i < {k}; i++) {{",
        "int v{k} = {e};",
        "return {e};",
        "/* {t} */",
    ),
}
LANGUAGES = ("python", *BRACES)
EXTENSIONS = {"python": ".py", **{name: syntax.ext for name, syntax in BRACES.items()}}

names = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
ODD_TEXT = "aé漢\u200b\u202e😀\u0301 \"'\\{}<>`$"  # for comments and strings (quotes and all)
texts = st.text(alphabet=ODD_TEXT, max_size=30)
numbers = st.integers(min_value=0, max_value=10_000)


@st.composite
def expressions(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["num", "name", "call", "string", "sum"]))
    if kind == "num":
        return str(draw(numbers))
    if kind == "name":
        return "x"
    if kind == "call":
        return f"{draw(names)}(x)"
    if kind == "string":
        value = draw(texts).replace("\\", "").replace('"', "")
        return f'"{value}"'
    return f"x + {draw(numbers)}"


@st.composite
def block(draw: st.DrawFn, depth: int) -> list[tuple[int, str]]:
    """(nesting level, line kind:text) pairs of a body, nested up to depth levels more."""
    lines: list[tuple[int, str]] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["statement", "comment", "branch", "loop", "exit"]))
        if kind in ("branch", "loop") and depth > 0:
            lines.append((0, f"{kind}:{draw(numbers)}"))
            lines += [(level + 1, item) for level, item in draw(block(depth - 1))]
            lines.append((0, "close:"))
        elif kind in ("branch", "loop"):
            lines.append((0, f"statement:{draw(numbers)}"))
        elif kind == "comment":
            lines.append((0, f"comment:{draw(texts)}"))
        else:
            lines.append((0, f"{kind}:{draw(expressions())}"))
    return lines


@st.composite
def programs(draw: st.DrawFn, language: str, depth: int = 3) -> str:
    """A source file: functions and records with methods, in the language's shape."""
    out: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        name = draw(names)
        body = draw(block(depth))
        if draw(st.booleans()):
            members = [
                (draw(names), draw(block(depth - 1))) for _ in range(draw(st.integers(0, 3)))
            ]
            out.append(_record(language, name.capitalize(), members))
        else:
            out.append(_function(language, name, body))
    return "\n\n".join(out) + "\n"


def _render_body(language: str, body: list[tuple[int, str]], base: int) -> list[str]:
    rows: list[str] = []
    for level, item in body:
        kind, _, value = item.partition(":")
        indent = "    " * (base + level)
        if language == "python":
            line = {
                "statement": f"v = {value}",
                "comment": f"# {value}",
                "branch": f"if x > {value}:",
                "loop": f"for i in range({value}):",
                "exit": f"return {value}",
                "close": "pass",
            }[kind]
            rows.append(("    " if kind == "close" else "") + indent + line)
            continue
        syntax = BRACES[language]
        template = {
            "statement": syntax.statement,
            "comment": syntax.comment,
            "branch": syntax.branch,
            "loop": syntax.loop,
            "exit": syntax.exit,
            "close": "}}",
        }[kind]
        k = value if kind in ("branch", "loop") else len(rows)
        rows.append(indent + template.format(k=k, e=value, t=value, n="f"))
    return rows


def _function(language: str, name: str, body: list[tuple[int, str]]) -> str:
    if language == "python":
        return "\n".join([f"def {name}(x):", *_render_body(language, body, 1), "    return x"])
    head = BRACES[language].function.format(n=name)
    rows = [head, *_render_body(language, body, 1), "    return 0;", "}"]
    if language == "java":
        rows = ["class Holder {", *("    " + r for r in rows), "}"]
    return "\n".join(rows)


def _record(language: str, name: str, members: list[tuple[str, list[tuple[int, str]]]]) -> str:
    if language == "python":
        rows = [f"class {name}:", '    """A record."""']
        for method, body in members:
            rows += [
                f"    def {method}(self, x):",
                *_render_body(language, body, 2),
                "        pass",
            ]
        return "\n".join(rows)
    syntax = BRACES[language]
    rows = syntax.record_open.format(N=name).split("\n")
    for method, body in members:
        rows.append("    " + syntax.method.format(n=method))
        rows += [*_render_body(language, body, 2), "    }"]
    rows.append(syntax.record_close.format())
    return "\n".join(rows)


def deep_nesting(language: str, depth: int) -> str:
    """One function whose body nests depth blocks."""
    body = [(level, f"branch:{level}") for level in range(depth)]
    closes = [(level, "close:") for level in reversed(range(depth))]
    return _function(language, "deep", [*body, (depth, "exit:x"), *closes]) + "\n"


SAMPLES = {
    "python": "sample.py",
    "typescript": "sample.ts",
    "go": "sample.go",
    "rust": "sample.rs",
    "java": "Sample.java",
    "c": "sample.c",
}


def sample(language: str) -> str:
    return (FIXTURES / SAMPLES[language]).read_text(encoding="utf-8")


ODD_CHARS = (
    "\u2028",
    "\u2029",
    "\r",
    "\r\n",
    "\x0b",
    "\x0c",
    "\x85",
    "\x1c",
    "\x00",
    "\ufeff",
    "\u202e",
    "\u0301",
    "😀",
    "漢字",
    "\t",
    "\\",
    '"',
    "'",
    "`",
    "/*",
    "*/",
    '"""',
)
BRACKETS = "{}()[]"


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """text with up to four mutations, each at a drawn place."""
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(
            st.sampled_from(
                ["truncate", "bytes", "brackets", "unicode", "long_line", "nest", "repeat"]
            )
        )
        if kind == "truncate":
            text = text[:at]
        elif kind == "bytes":
            raw = text.encode("utf-8")
            where = draw(st.integers(0, len(raw)))
            noise = draw(st.binary(min_size=1, max_size=12))
            text = decode_bytes(raw[:where] + noise + raw[where:], "x").text
        elif kind == "brackets":
            places = [i for i, ch in enumerate(text) if ch in BRACKETS]
            gone = set(draw(st.lists(st.sampled_from(places), max_size=6))) if places else set()
            text = "".join(ch for i, ch in enumerate(text) if i not in gone)
        elif kind == "unicode":
            text = text[:at] + draw(st.sampled_from(ODD_CHARS)) + text[at:]
        elif kind == "long_line":
            unit = draw(st.sampled_from(["x=1;", "a", "ü", "(", " ", "😀", "// c "]))
            text = text[:at] + unit * draw(st.integers(500, 6_000)) + text[at:]
        elif kind == "nest":
            depth = draw(st.integers(20, 400))
            opener, closer = draw(st.sampled_from([("{", "}"), ("(", ")"), ("[", "]")]))
            closed = draw(st.booleans())
            text = text[:at] + opener * depth + (closer * depth if closed else "") + text[at:]
        else:
            end = draw(st.integers(at, min(len(text), at + 400)))
            text = text[:end] + text[at:end] * draw(st.integers(1, 5)) + text[end:]
    return text


@st.composite
def sources(draw: st.DrawFn, languages: tuple[str, ...] = LANGUAGES) -> tuple[str, str]:
    """(language, text): generated, a real sample or a deeply nested function, mutated."""
    language = draw(st.sampled_from(languages))
    origin = draw(st.sampled_from(["generated", "generated", "sample", "deep"]))
    if origin == "generated":
        text = draw(programs(language))
    elif origin == "sample":
        text = sample(language)
    else:
        text = deep_nesting(language, draw(st.integers(30, 220)))
    return language, draw(mutated(text))
