"""Blanking comments and string literals out of code, and the facts read from what is left."""

from __future__ import annotations

import pytest

from ctxopt.chunking.symbols import code_facts
from ctxopt.languages.lexical import LexStyle, blank_literals


@pytest.mark.parametrize(
    ("code", "blanked"),
    [
        ("x = 1  # note", "x = 1   "),
        ("# at the start\ny = 2", " \ny = 2"),
        ("s = \"a # b\" + 'c'", "s =   +  "),
        ('doc = """one\n"two"\n"""\nz', "doc =  \nz"),
        ("doc = '''it's'''", "doc =  "),
        ('f"{x}" + rf"{y}" + F"{z}" + Rf"{w}"', 'f"{x}" + rf"{y}" + F"{z}" + Rf"{w}"'),
        ('r"raw" + b"bytes" + fb"x"', "r  + b  + fb "),  # r and b strings are not kept
        ('self"x" + elif"y"', "self  + elif "),  # f or r inside a longer word: no prefix
        ('"unterminated\nnext = 1', '"unterminated\nnext = 1'),
        ('"esc \\" quote" after', "  after"),
    ],
)
def test_python_comments_and_strings_are_blanked_and_f_strings_kept(
    code: str, blanked: str
) -> None:
    assert blank_literals(LexStyle.PYTHON, code) == blanked


@pytest.mark.parametrize(
    ("code", "blanked"),
    [
        ("echo hi # note\n#!/bin/sh", "echo hi  \n "),
        ("echo ${#list[@]} $# a#b", "echo ${#list[@]} $# a#b"),  # `#` inside a word stays
        ("x:\t# tab before", "x:\t "),
        ("key: \"a # b\" 'c'", "key:    "),
    ],
)
def test_hash_comments_start_a_line_or_follow_white_space(code: str, blanked: str) -> None:
    assert blank_literals(LexStyle.HASH, code) == blanked


def test_references_are_whole_identifiers_and_branches_count_operators() -> None:
    code = (
        "if alpha && $beta || gamma ?? delta:\n"
        "    eps = zeta ? eta : theta\n"
        "    obj?.field\n"
        "    n = 1abc + _k\n"
    )
    references, complexity = code_facts(code, own_name="eps")
    # not `beta` after `$`, not `abc` after a digit, not the one-letter `n`, not its own name
    assert references == ("_k", "alpha", "delta", "eta", "field", "gamma", "obj", "theta", "zeta")
    assert complexity == 1 + 1 + 3 + 1  # `if`; && || ??; the spaced ternary `?`, not `?.`
