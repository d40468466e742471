"""A signature entry always shows the declaration: never a marker or a doc comment alone."""

from __future__ import annotations

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.pack.compress.markers import shows_code
from ctxopt.pack.content import make_renderer, signature_content
from ctxopt.types import Chunk, Fidelity

TS_TYPES = """import { x } from "y";

/** Options of a request. */
export type Options = {
  retries: number;
  timeout: number;
  hooks: string[];
};

export interface Hooks {
  before: string[];
  after: string[];
}
"""

GO_STRUCT = """package client

// Options of a request.
type Options struct {
\tRetries int
\tTimeout int
\tHooks   []string
}
"""

PY_FUNCTION = '''
def fetch(url,
          retries):
    """Fetch url."""
    return url * retries
'''


def named(path: str, text: str, language: str, name: str) -> Chunk:
    return next(c for c in chunk_file(path, text, language).chunks if c.name == name)


@pytest.mark.parametrize(
    ("path", "text", "language", "name", "declaration"),
    [
        ("a.ts", TS_TYPES, "typescript", "Options", "export type Options = {"),
        ("a.ts", TS_TYPES, "typescript", "Hooks", "export interface Hooks {"),
        ("a.go", GO_STRUCT, "go", "Options", "type Options struct {"),
    ],
)
def test_a_type_stepped_down_to_its_signature_shows_its_declaration(
    path: str, text: str, language: str, name: str, declaration: str
) -> None:
    chunk = named(path, text, language, name)
    content = signature_content(chunk)
    assert content.split("\n")[0].strip() == declaration
    assert shows_code(content)
    assert "elided" in content.split("\n")[-1]  # the body stays out


def test_a_function_signature_keeps_its_lines_and_docstring() -> None:
    chunk = named("a.py", PY_FUNCTION, "python", "fetch")
    content = signature_content(chunk)
    assert "retries" in content and '"""Fetch url."""' in content


def test_the_renderer_never_prices_an_entry_that_is_only_a_marker() -> None:
    render = make_renderer("none")
    for chunk in chunk_file("a.ts", TS_TYPES, "typescript").chunks:
        content, _ = render(chunk, Fidelity.SIGNATURE)
        assert shows_code(content), content


def test_shows_code_tells_markers_from_code() -> None:
    assert not shows_code("// ... lines 3-13 elided")
    assert not shows_code("\n  # ... line 4 elided\n")
    assert shows_code("type A struct {\n// ... lines 2-4 elided")


MANY_PARAMETERS = (
    "def request(\n    self,\n"
    + "".join(f"    option_{i}: dict[str, int] | None = None,\n" for i in range(12))
    + ") -> Response:\n    return send(self)\n"
)


def test_a_long_signatures_stub_ends_after_a_whole_parameter() -> None:
    """A stub clipped to about 200 characters ends on a parameter's comma and " ...", not in
    the middle of a type (requests' `Session.request` of 15 parameters ended on `| None `)."""
    chunk = named("s.py", MANY_PARAMETERS, "python", "request")
    stub, _ = make_renderer("none")(chunk, Fidelity.STUB)
    assert stub.startswith("def request(") and stub.endswith(", ...")
    assert len(stub) <= 210
    last = stub.removesuffix(", ...").rsplit("option_", 1)[1]
    assert last.endswith("dict[str, int] | None = None")  # the last parameter shown is whole


def test_a_short_stub_is_the_whole_signature() -> None:
    chunk = named("a.py", PY_FUNCTION, "python", "fetch")
    stub, _ = make_renderer("none")(chunk, Fidelity.STUB)
    assert "..." not in stub and "retries" in stub
