"""The ranking reads a long task by its start and end (a pasted log of megabytes)."""

from __future__ import annotations

from ctxopt.retrieve.search import RANKED_CHARS, ranked_text


def test_a_task_within_the_limit_is_read_whole() -> None:
    task = "retry does not respect the Retry-After header\n" * 10
    assert ranked_text(task) == task


def test_a_long_task_is_read_by_its_start_and_end() -> None:
    steps = [f"step {i} ok" for i in range(100_000)]
    task = "\n".join(["$ make test", *steps, "TypeError in save_inventory"])
    read = ranked_text(task)
    assert len(read) <= RANKED_CHARS + 1
    assert read.startswith("$ make test") and read.endswith("TypeError in save_inventory")
    assert "step 50000 ok" not in read
