"""The rolling run with the fake LLM: memory and overlap reach the next window, the final pass
sees every memory, failures fall back to truncation and are never counted as done."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import FAKE_LLM
from ctxopt.analyze.layout import Layout, lay_out
from ctxopt.analyze.plan import Limits
from ctxopt.analyze.records import MemorySource
from ctxopt.analyze.report import markdown_report
from ctxopt.analyze.run import Event, EventKind, RunOptions, rolling_run

FAKE = [sys.executable, str(FAKE_LLM)]


def contract(sections: int = 6) -> str:
    parts = []
    for number in range(1, sections + 1):
        parts.append(f"## Section {number}")
        for line in range(8):
            parts.append(
                f"Clause {number}.{line}: the Supplier shall deliver batch {number * 10 + line} "
                f"to the Customer within {line + 2} days. Payment follows delivery."
            )
    return "\n\n".join(parts)


def plan(text: str) -> Layout:
    layout = lay_out(text, Limits(400, 0.2, 0))
    assert len(layout.windows) >= 3
    return layout


def prompts_of(log: Path) -> list[str]:
    return [json.loads(line)["prompt"] for line in log.read_text().splitlines()]


def run(
    text: str,
    layout: Layout,
    folder: Path,
    events: list[Event] | None = None,
    final_llm: list[str] = FAKE,
) -> object:
    options = RunOptions(
        llm=FAKE, final_llm=final_llm, timeout=30, memory_chars=1500, run_dir=folder
    )
    return rolling_run(text, layout, options, (events if events is not None else []).append)


def test_memory_and_overlap_reach_the_next_window_and_the_final_sees_every_memory(
    fake_llm: Path, tmp_path: Path
) -> None:
    text = contract()
    layout = plan(text)
    result = run(text, layout, tmp_path / "run")
    count = len(layout.windows)
    prompts = prompts_of(fake_llm)
    assert len(prompts) == 2 * count  # one analysis per window, compactions but the last, final
    analyses = [p for p in prompts if "<new_text>" in p]
    for window, prompt in zip(layout.windows[1:], analyses[1:], strict=True):
        previous = window.index - 1
        assert f"memory after window {previous}" in prompt  # the compacted memory, carried
        overlap = text[window.start : window.new_start]
        assert f"<overlap>\n{overlap}\n</overlap>" in prompt
        assert f"<new_text>\n{text[window.new_start : window.end]}\n</new_text>" in prompt
    assert "<overlap>\n\n</overlap>" in analyses[0]
    final = prompts[-1]
    assert "<memories>" in final
    for index in range(1, count):
        assert f"memory after window {index}" in final
    assert f"insight of window {count}" in final  # the last window's findings, as they are
    assert text[layout.windows[-1].start : layout.windows[-1].end] in final
    assert result.final.executive_summary == "summary over windows " + ",".join(
        str(i) for i in range(1, count + 1)
    )
    assert [w.memory_source for w in result.windows][-1] is MemorySource.LAST
    written = sorted(p.name for p in (tmp_path / "run").glob("window-*.json"))
    assert written == [f"window-{i:04d}.json" for i in range(1, count + 1)]


def test_a_failing_window_falls_back_to_truncation_and_the_run_goes_on(
    fake_llm: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_LLM_MODE", "fail-window=2")
    text = contract()
    layout = plan(text)
    events: list[Event] = []
    result = run(text, layout, tmp_path / "run", events)
    second = result.windows[1]
    assert second.failed and second.memory_source is MemorySource.TRUNCATED
    assert second.analysis.tries == 2 and not second.analysis.ok
    assert second.memory.carried_text and text[: layout.windows[1].end].endswith(
        second.memory.carried_text
    )
    assert [e.window for e in events if e.kind is EventKind.FALLBACK] == [2]
    third = next(p for p in prompts_of(fake_llm) if "This is window 3 of" in p)
    assert second.memory.to_json() in third  # the truncated memory is carried on
    assert not result.windows[0].failed and not result.windows[2].failed
    report = markdown_report(result, "contract")
    assert "## Failed steps" in report and "- window 2:" in report
    stored = json.loads((tmp_path / "run" / "window-0002.json").read_text())
    assert stored["failed"] is True and stored["memory_source"] == "truncated"


def test_a_failed_final_synthesis_is_reported_not_hidden(
    fake_llm: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = contract(2)
    layout = lay_out(text, Limits(5000))
    failing = ["sh", "-c", "cat >/dev/null; echo model unavailable >&2; exit 1"]
    result = run(text, layout, tmp_path / "run", final_llm=failing)
    assert len(result.windows) == 1 and not result.windows[0].failed
    assert result.final.failed
    report = markdown_report(result, "contract")
    assert "final synthesis: exit code 1: model unavailable" in report


def test_the_synthesis_leaves_out_the_oldest_memories_to_fit_its_limit() -> None:
    from ctxopt import tokens
    from ctxopt.analyze.run import fitted_final_prompt

    memories = [
        {"window": i, "memory": {"notes": f"window {i} " + "clause " * 300}} for i in range(1, 9)
    ]
    graph = {"entities": [], "relationships": []}
    whole, left_out = fitted_final_prompt(8, memories, graph, "the last window's text", None)
    assert left_out == 0 and all(f'"window": {i}' in whole for i in range(1, 9))
    limit = tokens.count(whole) // 2
    fitted, left_out = fitted_final_prompt(8, memories, graph, "the last window's text", limit)
    assert tokens.count(fitted) <= limit
    assert 0 < left_out < 8
    assert '"window": 8' in fitted and '"window": 1,' not in fitted  # the newest are kept
    tiny, left_out = fitted_final_prompt(8, memories, graph, "end of the document " * 900, 1500)
    assert tokens.count(tiny) <= 1500 and left_out == 7
    assert "end of the document" in tiny  # the last window's end is kept


def test_a_memory_too_big_for_any_synthesis_prompt_does_not_loop() -> None:
    """One window's memory alone over the limit: the last window's text is cut to nothing and
    the prompt returned (its call then fails or not); it used to spin for ever."""
    from ctxopt.analyze.run import fitted_final_prompt

    memories = [{"window": 1, "memory": {"insights": ["x" * 40_000]}}]
    prompt, left_out = fitted_final_prompt(1, memories, {"entities": []}, "the end.", 500)
    assert left_out == 0 and "the end." not in prompt
