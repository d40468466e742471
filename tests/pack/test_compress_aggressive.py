"""Aggressive compression keeps the shape of a chunk: never almost nothing, blocks parse."""

from __future__ import annotations

import ast
import re

import pytest

from ctxopt import tokens
from ctxopt.pack.compress import compress, signature_stub

# A C file held inside `extern "C" {` whose closing brace sits in a later #ifdef:
# tree-sitter sees one long statement (the shape of CPython's Modules/config.c).
EXTERN_C = """\
#include "handlers.h"

#ifdef __cplusplus
extern "C" {
#endif

extern int open_alpha(void);
extern int open_beta(void);
extern int open_gamma(void);
extern int open_delta(void);
extern int open_epsilon(void);

struct handler handlers[] = {
    {"alpha", open_alpha},
    {"beta", open_beta},
    {"gamma", open_gamma},
    {"delta", open_delta},
    {"epsilon", open_epsilon},
    {0, 0}
};

#ifdef __cplusplus
}
#endif
"""
OPEN_ALL = """\

int open_all(void)
{
    int failures = 0;
    failures += open_alpha();
    failures += open_beta();
    failures += open_gamma();
    failures += open_delta();
    failures += open_epsilon();
    return failures;
}
"""
EXTERN_C_WITH_FUNCTION = EXTERN_C.replace("\n\nstruct", "\n" + OPEN_ALL + "\nstruct")


@pytest.mark.parametrize("text", [EXTERN_C, EXTERN_C_WITH_FUNCTION], ids=["decls", "function"])
def test_aggressive_keeps_declarations_inside_an_extern_c_block(text: str) -> None:
    out = compress(text, "c", "aggressive")
    assert tokens.count(out) > 0.4 * tokens.count(compress(text, "c", "medium"))
    for name in ("alpha", "beta", "gamma", "delta", "epsilon"):
        assert f"extern int open_{name}(void);" in out
    assert 'extern "C" {' in out and out.rstrip().endswith("#endif")
    assert "struct handler handlers[] = {" in out and '{"beta", open_beta}' not in out
    assert re.search(r"// \.\.\. lines \d+-\d+ elided", out)


def test_aggressive_elides_the_body_of_a_function_inside_extern_c() -> None:
    out = compress(EXTERN_C_WITH_FUNCTION, "c", "aggressive")
    assert "int open_all(void)" in out and "return failures;" in out
    assert "failures += open_beta();" not in out


def test_aggressive_keeps_a_run_of_plain_statements() -> None:
    text = "".join(f"SETTING_{i} = load('setting_{i}', default={i})\n" for i in range(12))
    out = compress(text, "python", "aggressive")
    assert all(f"SETTING_{i} =" in out for i in range(12))


LOOP = """\
def total(items):
    total = 0
    for item in items:
        total += item.price * item.count
        total -= item.discount
        total = round(total, 2)
    return total
"""


def test_aggressive_python_block_left_with_only_a_marker_still_parses() -> None:
    out = compress(LOOP, "python", "aggressive", start_line=10)
    assert "for item in items:" in out and "return total" in out
    assert "# ... lines 13-15 elided" in out and "item.discount" not in out
    ast.parse(out)


def test_signature_stub_of_python_function_without_docstring_parses() -> None:
    text = "class A:\n    def f(self, x):\n        a = x + 1\n        b = a * 2\n        return b\n"
    stub = signature_stub(text, "python")
    assert "def f(self, x):" in stub and "# ... lines 3-5 elided" in stub
    ast.parse(stub)


@pytest.mark.parametrize(
    ("language", "text", "declaration"),
    [
        (
            "kotlin",
            "  /**\n   * Returns a path to the current location.\n   */\n"
            "  @get:CheckReturnValue\n  public val path: String\n"
            "    get() = getPath(stackSize, scopes, pathNames, pathIndices)\n",
            "public val path: String",
        ),
        (
            "java",
            '    /** The reader\'s path. */\n    @Nullable\n    @SuppressWarnings("unused")\n'
            "    private final String path =\n        computePath(stackSize, scopes, pathNames);\n",
            "private final String path =",
        ),
    ],
)
def test_aggressive_keeps_the_line_an_annotated_declaration_is_named_on(
    language: str, text: str, declaration: str
) -> None:
    """A class-body piece whose statement starts with annotations came out as the annotation
    alone (`@get:CheckReturnValue`), an entry that shows no code: the rows down to the one
    that names the declaration are its head."""
    out = compress(text, language, "aggressive")
    assert declaration in out, out
