"""A task too long for its budget keeps its start and end around a marker line (real cl100k)."""

from __future__ import annotations

import re

from ctxopt import tokens
from ctxopt.pack.long_task import shorten_task

ERROR = "ERROR: save_inventory raised FileNotFoundError"
STEPS = [f"[{i:05d}] step {i} ok: compiled module_{i}.c" for i in range(2000)]
LOG = "\n".join(["$ make test", *STEPS, ERROR])


def test_a_task_that_fits_is_left_alone() -> None:
    assert shorten_task("fix save_inventory when the file is missing", 100) is None


def test_a_long_log_keeps_whole_lines_from_its_start_and_end_and_names_what_was_elided() -> None:
    short = shorten_task(LOG, 600)
    assert short is not None
    assert tokens.count(short.text) <= 600
    lines = short.text.splitlines()
    assert lines[0] == "$ make test" and lines[-1] == ERROR
    markers = [i for i, line in enumerate(lines) if line.startswith("[... ")]
    assert len(markers) == 1
    kept = lines[: markers[0]] + lines[markers[0] + 1 :]
    original = LOG.splitlines()
    assert all(line in original for line in kept)  # whole lines only
    assert short.elided_lines == len(original) - len(kept)
    named = re.search(r"\[\.\.\. ([\d,]+) lines of the task \(([\d,]+) tokens\)", lines[markers[0]])
    assert named is not None and int(named.group(1).replace(",", "")) == short.elided_lines
    assert len(kept[: markers[0]]) < len(kept[markers[0] :])  # more of the end than the start


def test_one_enormous_line_keeps_its_start_and_its_end() -> None:
    line = "begin " + " ".join(f"word{i}" for i in range(5000)) + " finally the error"
    short = shorten_task(line, 300)
    assert short is not None and tokens.count(short.text) <= 300
    assert short.text.startswith("begin word0 word1") and short.text.endswith("finally the error")
    assert short.elided_lines == 1 and "[... 1 line of the task" in short.text


def test_no_shortening_below_the_marker_itself() -> None:
    assert shorten_task(LOG, 20) is None
