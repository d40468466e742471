"""The benchmark credits a class summary with the lines it shows, not its class's whole range."""

from __future__ import annotations

import sys
from pathlib import Path

from ctxopt.chunking import chunk_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from benchlib.verbatim import verbatim_runs


def big_class() -> str:
    lines = ["class Engine:", '    """Runs the jobs."""', "", "    limit = 3", ""]
    for i in range(40):
        lines += [f"    def step_{i}(self, job):", f'        """Step {i}."""']
        lines += [f"        job.advance({i}, part={j})" for j in range(12)]
        lines.append("")
    return "\n".join(lines) + "\n"


def test_a_summary_is_credited_with_its_own_lines_only() -> None:
    text = big_class()
    chunks = chunk_file("engine.py", text, "python").chunks
    (summary,) = [c for c in chunks if c.summary]
    file_lines = text.split("\n")
    runs = verbatim_runs(file_lines, summary.start_line, summary.end_line, summary.text)
    shown = {n for first, last in runs for n in range(first, last + 1)}
    assert {1, 2, 4} <= shown  # the header, the docstring and the field
    assert 6 in shown  # a member's signature line
    body = {n for n, line in enumerate(file_lines, 1) if "job.advance(" in line}
    assert body and not body & shown  # no method body
    assert sum(last - first + 1 for first, last in runs) == len(summary.text.split("\n"))


def test_a_whole_chunk_is_credited_with_its_range() -> None:
    text = big_class()
    method = next(c for c in chunk_file("engine.py", text, "python").chunks if not c.summary)
    lines = text.split("\n")
    assert verbatim_runs(lines, method.start_line, method.end_line, method.text) == [
        (method.start_line, method.end_line)
    ]
