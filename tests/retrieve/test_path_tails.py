"""tail_matches: a path from another machine names the one indexed file sharing its longest
tail of two parts or more."""

from __future__ import annotations

from ctxopt.retrieve.path_tails import tail_matches

INDEXED = ("src/click/types.py", "src/click/core.py", "tests/test_types.py", "docs/conf.py")


def test_the_longest_shared_tail_names_its_file() -> None:
    mention = "usr/lib/python3.12/site-packages/click/types.py"
    assert tail_matches([mention], INDEXED) == {mention: "src/click/types.py"}


def test_a_mention_same_file_matches_needs_no_tail() -> None:
    assert tail_matches(["home/me/click/src/click/types.py", "click/core.py"], INDEXED) == {}


def test_a_bare_file_name_or_a_one_part_tail_names_nothing() -> None:
    assert tail_matches(["types.py", "site-packages/other/types.py"], INDEXED) == {}


def test_the_longest_tail_wins_and_a_shared_one_names_neither() -> None:
    indexed = ("a/pkg/x/mod.py", "b/pkg/x/mod.py", "c/y/mod.py")
    assert tail_matches(["opt/pkg/x/mod.py"], indexed) == {}
    assert tail_matches(["opt/q/y/mod.py"], indexed) == {"opt/q/y/mod.py": "c/y/mod.py"}
    assert tail_matches(["opt/z/pkg/x/mod.py"], (*indexed, "z/pkg/x/mod.py")) == {}
