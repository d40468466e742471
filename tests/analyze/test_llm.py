"""The external command: answers, JSON extraction, one repair, timeouts; memory shape and size."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conftest import FAKE_LLM
from ctxopt.analyze.llm import Outcome, call_json, command_argv, extract_json
from ctxopt.analyze.memory import (
    Entity,
    Findings,
    Memory,
    ShapeError,
    findings_from,
    fit_memory,
    memory_from,
    truncated_memory,
)
from ctxopt.errors import UsageError

FAKE = [sys.executable, str(FAKE_LLM)]
WINDOW_PROMPT = "This is window 2 of 3.\n<new_text>\nAcme pays Globex.\n</new_text>\n"


def test_json_is_found_inside_fences_and_prose() -> None:
    assert extract_json('Sure!\n```json\n{"a": [1, {"b": "}"}]}\n```\nDone.') == {
        "a": [1, {"b": "}"}]
    }
    assert extract_json('{broken {"ok": true}') == {"ok": True}
    with pytest.raises(ValueError):
        extract_json('{"insights": ["cut off')


def test_the_shape_is_checked() -> None:
    assert findings_from({"insights": ["x"], "entities": ["Acme"]}).entities == (Entity("Acme"),)
    with pytest.raises(ShapeError):
        findings_from({"prompt": "an echo"})
    with pytest.raises(ShapeError):
        findings_from({"insights": "not a list"})
    with pytest.raises(ShapeError):
        memory_from(["a list"])


def test_a_good_answer_is_parsed_first_time(fake_llm: Path) -> None:
    call = call_json(FAKE, WINDOW_PROMPT, findings_from, timeout=30)
    assert call.outcome is Outcome.OK and len(call.attempts) == 1
    assert call.value.insights == ("insight of window 2",)
    assert {e.name for e in call.value.entities} >= {"Entity2", "Acme", "Globex"}
    assert json.loads(fake_llm.read_text().splitlines()[0])["prompt"] == WINDOW_PROMPT


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [
        ("exit", Outcome.EXIT),
        ("garbage", Outcome.NOT_JSON),
        ("cutoff", Outcome.NOT_JSON),
    ],
)
def test_failures_get_one_retry_with_a_repair_instruction(
    fake_llm: Path, monkeypatch: pytest.MonkeyPatch, mode: str, outcome: Outcome
) -> None:
    monkeypatch.setenv("FAKE_LLM_MODE", mode)
    call = call_json(FAKE, WINDOW_PROMPT, findings_from, timeout=30)
    assert not call.ok and call.outcome is outcome and len(call.attempts) == 2
    prompts = [json.loads(line)["prompt"] for line in fake_llm.read_text().splitlines()]
    assert prompts[0] == WINDOW_PROMPT
    assert prompts[1].startswith(WINDOW_PROMPT) and "could not be used" in prompts[1]


def test_a_repaired_answer_counts_as_repaired(
    fake_llm: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_LLM_MODE", "repair-once")
    call = call_json(FAKE, WINDOW_PROMPT, findings_from, timeout=30)
    assert call.outcome is Outcome.REPAIRED and call.ok
    assert call.attempts[0].outcome is Outcome.NOT_JSON


def test_invalid_json_is_named_as_such_in_the_warning_and_the_repair_prompt(
    tmp_path: Path,
) -> None:
    """A trailing comma (a common slip of models) is invalid JSON: until 2026-12-02 the call
    said, and the repair prompt told the model, that its answer held no JSON object."""
    log = tmp_path / "prompts.txt"
    script = tmp_path / "trailing_comma.py"
    script.write_text(
        "import sys\n"
        f"open({str(log)!r}, 'a').write(sys.stdin.read() + '\\0')\n"
        'print(\'{"insights": ["x",], "entities": []}\')\n'
    )
    call = call_json([sys.executable, str(script)], WINDOW_PROMPT, findings_from, timeout=30)
    assert not call.ok and call.outcome is Outcome.NOT_JSON
    assert call.detail == (
        "the answer's JSON object is not valid JSON: Expecting value (line 1, column 19)"
    )
    repair = log.read_text().split("\0")[1]
    assert "could not be used: the answer's JSON object is not valid JSON" in repair
    with pytest.raises(ValueError, match="the answer is empty"):
        extract_json(" \n")
    with pytest.raises(ValueError, match="holds no JSON object"):
        extract_json("I cannot help with that.")


def test_a_hanging_command_is_killed_at_the_timeout(
    fake_llm: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_LLM_MODE", "hang")
    call = call_json(FAKE, WINDOW_PROMPT, findings_from, timeout=1)
    assert call.outcome is Outcome.TIMEOUT and len(call.attempts) == 2
    assert "--timeout" in call.detail


def test_a_command_that_echoes_its_prompt_is_not_an_answer() -> None:
    """`--llm cat`: the prompt's own example JSON would parse as an empty answer."""
    prompt = 'Answer with JSON like {"insights": [], "entities": []} and nothing else.'
    result = call_json(["cat"], prompt, lambda value: value, timeout=30)
    assert not result.ok
    assert [a.outcome for a in result.attempts] == [Outcome.NOT_JSON, Outcome.NOT_JSON]
    assert "repeats the prompt word for word" in result.detail


def test_an_answer_is_taken_when_a_process_the_command_left_holds_its_output(
    tmp_path: Path,
) -> None:
    """The command prints its answer and exits, but something it started keeps stdout open:
    the answer is complete (before, the call waited for --timeout and was retried)."""
    script = tmp_path / "leaves_a_child.py"
    script.write_text(
        "import json, subprocess, sys\n"
        "print(json.dumps({'answer': 42}), flush=True)\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
    )
    result = call_json([sys.executable, str(script)], "say 42", lambda v: v["answer"], timeout=8)
    assert result.ok and result.value == 42
    assert [a.outcome for a in result.attempts] == [Outcome.OK]


def test_a_missing_command_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="not found"):
        command_argv("no-such-llm-command -m x")
    with pytest.raises(UsageError):
        command_argv("'unclosed")


def test_memory_stays_under_its_target_dropping_the_oldest() -> None:
    memory = Memory(running_insights=tuple(f"insight {i:03d}" for i in range(200)))
    fitted = fit_memory(memory, 500)
    assert len(fitted.to_json()) <= 500
    assert fitted.running_insights[-1] == "insight 199"
    assert "insight 000" not in fitted.running_insights


def test_truncation_keeps_what_is_known_and_the_last_characters() -> None:
    previous = Memory(running_insights=("earlier insight",))
    findings = Findings(insights=("window insight",), entities=(Entity("Acme"),))
    text = "x" * 5000 + "THE END"
    memory = truncated_memory(previous, findings, text, 1000)
    assert len(memory.to_json()) <= 1000
    assert memory.carried_text.endswith("THE END") and len(memory.carried_text) >= 250
    assert "earlier insight" in memory.running_insights and Entity("Acme") in memory.key_entities
    bare = truncated_memory(Memory(), None, text, 1000)
    assert bare.carried_text == text[-len(bare.carried_text) :]


def test_an_answer_past_the_cap_is_cut_off_and_the_command_killed(tmp_path: Path) -> None:
    """A command that prints far more than any answer and then holds its output open: it is
    stopped once the answer passes MAX_ANSWER_BYTES, a failed step like a timeout (before,
    every byte was kept in memory until --timeout: `yes '{"insights": [1]}'` reached 6.5 GB)."""
    from ctxopt.analyze.pipes import MAX_ANSWER_BYTES

    pids = tmp_path / "pids"
    script = tmp_path / "floods.py"
    script.write_text(
        "import os, sys, time\n"
        f"open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
        "line = b'{\"insights\": [1]}\\n' * 4096\n"
        f"for _ in range({3 * MAX_ANSWER_BYTES} // len(line)):\n"
        "    sys.stdout.buffer.write(line)\n"
        "sys.stdout.flush()\n"
        "time.sleep(3600)\n"
    )
    result = call_json([sys.executable, str(script)], "say 42", lambda v: v, timeout=20)
    assert [a.outcome for a in result.attempts] == [Outcome.TOO_LONG, Outcome.TOO_LONG]
    assert "MiB" in result.detail and "stopped" in result.detail
    assert all(0 < len(a.answer) <= MAX_ANSWER_BYTES // 16 for a in result.attempts)
    for pid in pids.read_text().split():  # both runs were killed, not left printing
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)


def test_an_endless_answer_ends_at_the_cap_long_before_the_timeout() -> None:
    """`yes` as the LLM command: bounded by the cap, not by --timeout."""
    import time

    started = time.monotonic()
    result = call_json(["yes", '{"insights": [1]}'], "x", lambda v: v, timeout=120)
    assert result.outcome is Outcome.TOO_LONG and len(result.attempts) == 2
    assert time.monotonic() - started < 30
