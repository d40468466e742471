"""Where a class summary's rows sit in its file, and what an entry leaves out of its chunk."""

from __future__ import annotations

from ctxopt.chunking import chunk_file
from ctxopt.pack.content import chunk_content
from ctxopt.pack.labels import elided_lines
from ctxopt.pack.work_tree import left_out, row_lines
from ctxopt.types import Choice, Chunk, Fidelity, PickReason, ScoredChunk


def engine() -> str:
    lines = [
        "import os",
        "",
        "",
        "class Engine:",
        '    """Runs the jobs."""',
        "",
        "    limit = 3",
        "",
    ]
    for i in range(40):
        lines += [f"    def step_{i}(self, job):", f'        """Step {i}."""']
        lines += [f"        job.advance({i}, part={j})" for j in range(12)]
        lines.append("")
    return "\n".join(lines) + "\n"


def chunks() -> tuple[Chunk, ...]:
    return chunk_file("engine.py", engine(), "python").chunks


def choice(chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None) -> Choice:
    content = chunk_content(chunk, fidelity, "light", lines)
    return Choice(
        ScoredChunk(chunk, 1.0, {}, (), {}), fidelity, content, 10, PickReason.SCORE, lines
    )


def test_each_summary_row_is_found_at_its_line_and_the_bodies_are_left_out() -> None:
    (summary,) = [c for c in chunks() if c.summary]
    file_lines = engine().split("\n")
    rows = row_lines(file_lines, summary)
    assert rows is not None and list(rows) == sorted(set(rows))
    assert [file_lines[n - 1] for n in rows] == summary.text.split("\n")
    gaps = left_out(rows, file_lines, summary.start_line, summary.end_line)
    assert len(gaps) == 40  # one per body; the blank line after the field is not one
    assert gaps[0] == (10, 22)  # step_0's docstring and body, without the blank line after
    left = {n for first, last in gaps for n in range(first, last + 1)}
    assert {n for n, line in enumerate(file_lines, 1) if "job.advance(" in line} <= left
    assert all(
        file_lines[first - 1].strip() and file_lines[last - 1].strip() for first, last in gaps
    )


def test_a_row_the_file_no_longer_holds_gives_no_rows() -> None:
    (summary,) = [c for c in chunks() if c.summary]
    edited = engine().replace("def step_7(self, job):", "def step_7(self, job, at):").split("\n")
    assert row_lines(edited, summary) is None


def test_what_each_fidelity_leaves_out() -> None:
    step = next(c for c in chunks() if c.name == "step_3")
    assert elided_lines(choice(step, Fidelity.FULL)) == []
    assert elided_lines(choice(step, Fidelity.PATH)) == [[step.start_line, step.end_line]]
    assert elided_lines(choice(step, Fidelity.STUB)) == [[step.start_line + 1, step.end_line]]
    excerpt = choice(step, Fidelity.EXCERPT, (step.start_line + 4, step.start_line + 8))
    assert elided_lines(excerpt) == [
        [step.start_line + 1, step.start_line + 3],
        [step.start_line + 9, step.end_line],
    ]
    (summary,) = [c for c in chunks() if c.summary]
    assert elided_lines(choice(summary, Fidelity.SIGNATURE)) is None  # rows not looked up
