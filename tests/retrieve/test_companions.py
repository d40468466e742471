from ctxopt.languages.naming import subject_stem
from ctxopt.retrieve.companions import companion_tests

PATHS = [
    "src/click/termui.py",
    "src/click/core.py",
    "tests/test_termui.py",
    "tests/test_core.py",
    "command.go",
    "command_test.go",
    "source/utils/merge.ts",
    "test/merge.ts",
    "source/utils/merge.test.ts",
    "src/main/java/Parser.java",
    "src/test/java/ParserTest.java",
    "docs/termui.md",
]


def test_subject_stems_drop_test_affixes() -> None:
    assert subject_stem("tests/test_termui.py") == "termui"
    assert subject_stem("command_test.go") == "command"
    assert subject_stem("source/utils/merge.test.ts") == "merge"
    assert subject_stem("src/test/java/ParserTest.java") == "parser"
    assert subject_stem("tests/test_latest.py") == "latest"  # not "la"
    assert subject_stem("src/contest.py") == "contest"
    assert subject_stem("tests/test_utils_test.py") == "utils"


def test_each_source_gets_its_tests_by_name() -> None:
    found = companion_tests(
        ["src/click/termui.py", "command.go", "src/main/java/Parser.java"], PATHS
    )
    assert found["src/click/termui.py"] == ["tests/test_termui.py"]
    assert found["command.go"] == ["command_test.go"]
    assert found["src/main/java/Parser.java"] == ["src/test/java/ParserTest.java"]


def test_the_test_sharing_more_folders_comes_first() -> None:
    found = companion_tests(["source/utils/merge.ts"], PATHS)
    assert found["source/utils/merge.ts"] == ["source/utils/merge.test.ts", "test/merge.ts"]


def test_no_tests_for_tests_or_unmatched_sources() -> None:
    found = companion_tests(["tests/test_core.py", "src/click/utils.py"], PATHS)
    assert found == {}
