from dataclasses import replace

from ctxopt.pack.key_lines import KEY_LINES, MIN_SPAN, key_lines, key_terms
from ctxopt.retrieve.window_terms import task_terms
from ctxopt.types import Chunk, ChunkKind


def _function(rows: list[str], start_line: int = 100) -> Chunk:
    text = "\n".join(rows)
    return Chunk(
        id=f"a.ts:{start_line}", path="a.ts", language="typescript", kind=ChunkKind.METHOD,
        name="delay", qualified_name="Ky.delay", signature=rows[0], docstring="",
        start_line=start_line, end_line=start_line + len(rows) - 1, text=text, tokens=len(rows) * 8,
        content_hash=text,
    )  # fmt: skip


def _long_method(branch_at: int, length: int = 80) -> list[str]:
    """A method whose only lines about retry timing headers start at row branch_at."""
    rows = ["async delay(error: unknown) {"]
    rows += [f"\tconst step{i} = compute(step{i - 1});" for i in range(1, length - 1)]
    rows[branch_at] = "\tconst timing = getRetryTimingHeader(error.response.headers);"
    rows[branch_at + 3] = "\tif (error.response.status === 413) { throw error; }"
    return [*rows, "}"]


def test_the_key_lines_are_the_stretch_holding_the_task_words() -> None:
    chunk = _function(_long_method(branch_at=50))
    terms = task_terms("retry ignores the Retry-After header") | {"413"}
    first, last = key_lines(chunk, terms) or (0, 0)
    assert last - first + 1 == KEY_LINES
    assert first <= chunk.start_line + 50 and chunk.start_line + 53 <= last  # both rows in it
    assert chunk.start_line < first and last <= chunk.end_line


def test_a_number_the_task_names_counts_as_one_of_its_words() -> None:
    rows = _long_method(branch_at=10)
    rows[13] = "\tconst unrelated = 1;"
    rows[70] = "\tif (status === 413) { return; }"  # the number alone, far from the header
    chunk = _function(rows)
    found = key_lines(chunk, key_terms("why is 413 not retried"))
    assert found is not None and found[0] <= chunk.start_line + 70 <= found[1]
    assert "413" in key_terms("why is 413 not retried") and "41" not in key_terms("retry 41 times")


def test_no_key_lines_for_short_chunks_summaries_or_tasks_it_does_not_name() -> None:
    short = _function(_long_method(branch_at=5, length=MIN_SPAN - 1))
    assert key_lines(short, task_terms("retry timing header")) is None
    chunk = _function(_long_method(branch_at=50))
    assert key_lines(chunk, task_terms("render the sidebar")) is None
    summary = replace(chunk, text="\n".join(chunk.text.split("\n")[::2]))  # fewer rows than lines
    assert key_lines(summary, task_terms("retry timing header")) is None


def test_a_shorter_stretch_is_still_the_one_holding_the_task_words() -> None:
    chunk = _function(_long_method(branch_at=50))
    terms = key_terms("retry timing header for 413")
    for length in (8, 12, KEY_LINES):
        first, last = key_lines(chunk, terms, length) or (0, 0)
        assert last - first + 1 == length
        assert first <= chunk.start_line + 53 and chunk.start_line + 50 <= last
