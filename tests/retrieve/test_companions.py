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
