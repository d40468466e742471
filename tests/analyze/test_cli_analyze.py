"""`ctxopt analyze-doc` end to end: the real CLI in a subprocess, the fake and a real LLM."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clitools import Run, assert_one_line_error, run_cli
from conftest import FAKE_LLM
from ctxopt import tokens
from docmaker import encrypted_pdf
from helpers import ROOT, run_in_fresh_python

DOCS = ROOT / "fixtures" / "documents"
FAKE = f"{sys.executable} {FAKE_LLM}"


def contract(path: Path, sections: int = 6) -> Path:
    parts = []
    for number in range(1, sections + 1):
        parts.append(f"## Section {number}")
        for line in range(8):
            parts.append(
                f"Clause {number}.{line}: Acme shall deliver batch {number * 10 + line} to "
                f"Globex within {line + 2} days. Payment follows delivery."
            )
    path.write_text("\n\n".join(parts), encoding="utf-8")
    return path


def calls(log: Path) -> list[str]:
    if not log.exists():
        return []
    return [json.loads(line)["prompt"] for line in log.read_text().splitlines()]


def analyze(*args: str, env: dict[str, str] | None = None) -> Run:
    return run_cli("analyze-doc", *args, env=env)


def test_help_lists_the_options_and_the_readme_has_the_command() -> None:
    result = run_cli("analyze-doc", "--help")
    assert result.code == 0
    for flag in (
        "--plan",
        "--llm",
        "--final-llm",
        "--resume",
        "--max-calls",
        "--emit-prompts",
        "--budget",
        "--window-tokens",
        "--memory-chars",
        "--timeout",
        "--json",
    ):
        assert flag in result.out
    assert "analyze-doc" in run_cli("--help").out
    readme = (ROOT / "README.md").read_text()
    assert "ctxopt analyze-doc" in readme
    for command in ("llm -m", "claude -p", "ollama run"):
        assert f'--llm "{command}' in readme


def test_plan_of_the_shipped_pdf_and_html_as_one_document() -> None:
    result = analyze(str(DOCS / "handbook.html"), str(DOCS / "agreement.pdf"), "--plan", "--json")
    assert result.code == 0, result.err
    plan = result.json()
    assert isinstance(plan, dict)
    assert plan["single_pass"] is True and len(plan["windows"]) == 1
    assert plan["windows"][0]["chars"] == [0, plan["chars"]]
    assert plan["llm_calls"] == 2
    assert plan["estimated_tokens"] == -(-plan["chars"] * 2 // 7)  # ceil(chars / 3.5)
    assert result.err == ""  # stdout only carries the plan


def test_plan_shows_windows_calls_tokens_and_cost(tmp_path: Path) -> None:
    doc = contract(tmp_path / "c.md")
    text = doc.read_text()
    result = analyze(str(doc), "--plan", "--window-tokens", "400", "--json")
    plan = result.json()
    assert isinstance(plan, dict)
    windows = plan["windows"]
    assert len(windows) >= 3 and plan["tokens"] == tokens.count(text)
    assert plan["llm_calls"] == 2 * len(windows)
    for window in windows:
        start, end = window["chars"]
        assert window["tokens"] == tokens.count(text[start:end]) <= 400
    for previous, window in itertools.pairwise(windows):
        assert window["new_chars"][0] == previous["chars"][1]
        assert 0 < window["overlap_tokens"] <= 80
    human = analyze(str(doc), "--plan", "--model", "claude-haiku-4-5")
    assert human.code == 0 and "LLM calls: 2 (single pass)" in human.out and "cost: $" in human.out


def test_the_readme_states_the_single_window_rule_the_plan_follows(tmp_path: Path) -> None:
    """A document is one window when it fits one window; --single-pass-tokens changes nothing.
    Before, the README said a document within --single-pass-tokens (100,000) is one window,
    while with --window-tokens 8000 a 43,900-token document was 8 windows."""
    readme = (ROOT / "README.md").read_text()
    section = " ".join(readme.split("### analyze-doc")[1].split("\n### ")[0].split())
    assert "A document within `--single-pass-tokens` (100,000) is one window" not in section
    assert "A document is one window when it fits one window" in section
    doc = varied(tmp_path / "big.md", paragraphs=300)
    plan = analyze(str(doc), "--plan", "--json", "--window-tokens", "2000").json()
    assert isinstance(plan, dict) and plan["tokens"] < 100_000 and len(plan["windows"]) > 1
    small = contract(tmp_path / "c.md")
    one = analyze(str(small), "--plan", "--json", "--single-pass-tokens", "10").json()
    assert isinstance(one, dict) and one["tokens"] > 10 and len(one["windows"]) == 1
    assert "one window when it fits" in " ".join(run_cli("analyze-doc", "--help").out.split())


def test_stdin_is_read_with_a_dash(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "ctxopt.cli", "analyze-doc", "-", "--plan", "--json"],
        input=(DOCS / "agreement.pdf").read_bytes(),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["chars"] > 500


@pytest.mark.parametrize(
    ("name", "data", "code", "words"),
    [
        ("missing.pdf", None, 2, "no such file"),
        ("locked.pdf", encrypted_pdf(), 1, "encrypted"),
        ("blob.txt", bytes(range(256)) * 4, 1, "binary"),
        ("empty.md", b"\n\n", 1, "empty"),
    ],
    ids=["missing", "encrypted", "binary", "empty"],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    tmp_path: Path, name: str, data: bytes | None, code: int, words: str
) -> None:
    path = tmp_path / name
    if data is not None:
        path.write_bytes(data)
    result = analyze(str(path), "--plan")
    assert_one_line_error(result)
    assert result.code == code and words in result.err


def test_utf16_and_utf32_text_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    for encoding in ("utf-16", "utf-16-be", "utf-32"):
        doc = tmp_path / f"{encoding}.txt"
        bom = "\ufeff" if encoding.endswith("-be") else ""
        doc.write_text(bom + "Hello wörld. Payment follows delivery. " * 40, encoding=encoding)
        plan = analyze(str(doc), "--plan", "--json")
        assert plan.code == 0, (encoding, plan.err)
        assert plan.json()["chars"] == 40 * len("Hello wörld. Payment follows delivery. ")


def test_endless_binary_input_is_refused_from_its_first_bytes(tmp_path: Path) -> None:
    (tmp_path / "zero.txt").symlink_to("/dev/zero")  # reading it whole would never end
    result = analyze(str(tmp_path / "zero.txt"), "--plan")
    assert_one_line_error(result)
    assert result.code == 1 and "looks binary" in result.err


def test_bad_flags_are_usage_errors(tmp_path: Path) -> None:
    doc = contract(tmp_path / "c.md")
    for args in (
        ("--model", "gpt-5", "--window-tokens", "500"),
        ("--window-tokens", "10"),
        ("--llm", "no-such-command-xyz"),
        ("--resume",),
        ("--model", "no-such-model"),
        ("--llm", FAKE, "--timeout", "nan"),
        ("--llm", FAKE, "--timeout", "inf"),
        ("--llm", FAKE, "--max-calls", "-1"),
        ("--llm", FAKE, "--run-dir", str(doc)),  # a file, not a folder
        ("--plan", "-o", str(tmp_path)),  # a folder, not a file
        ("--budget", "0"),  # until 2026-12-01 exit 3, naming a budget to use
        ("--budget", "-5"),
    ):
        result = analyze(str(doc), *args)
        assert_one_line_error(result)
        assert result.code == 2, args


def test_output_dash_is_stdout_and_a_file_gets_its_folders(tmp_path: Path) -> None:
    doc = contract(tmp_path / "c.md")
    to_stdout = analyze(str(doc), "--plan", "--json", "-o", "-")
    assert to_stdout.code == 0, to_stdout.err
    assert to_stdout.json()["tokens"] > 0
    assert not Path("-").exists()
    nested = tmp_path / "new" / "folder" / "plan.json"
    to_file = analyze(str(doc), "--plan", "--json", "-o", str(nested))
    assert to_file.code == 0, to_file.err
    assert to_file.out == "" and json.loads(nested.read_text())["tokens"] > 0
    (tmp_path / "a_file").write_text("x")
    blocked = analyze(str(doc), "--plan", "-o", str(tmp_path / "a_file" / "plan.txt"))
    assert_one_line_error(blocked)
    assert "a_file" in blocked.err
    empty = analyze(str(doc), "--plan", "-o", "")
    assert_one_line_error(empty)
    assert empty.code == 2 and "-o is empty" in empty.err


def test_max_calls_stops_before_the_first_call(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    doc = contract(tmp_path / "c.md")
    result = analyze(
        str(doc),
        "--window-tokens",
        "400",
        "--llm",
        FAKE,
        "--max-calls",
        "3",
        env={"FAKE_LLM_LOG": str(log)},
    )
    assert_one_line_error(result)
    assert result.code == 3 and "--max-calls 3" in result.err
    assert calls(log) == []


def test_max_calls_counts_only_the_calls_a_run_still_makes(tmp_path: Path) -> None:
    """Windows and a synthesis read back from the run folder cost no call, so --max-calls does
    not count them (until 2026-12-02 it counted the whole plan: a finished run refused to be
    read back under --max-calls 2)."""
    first, log = rolling(tmp_path)
    assert first.code == 0, first.err
    paid = len(calls(log))
    windows = len(list((tmp_path / "run").glob("window-*.json")))
    assert paid == 2 * windows  # an analysis and a compaction a window, but the last; a synthesis
    again, _ = rolling(tmp_path, "--max-calls", "0")
    assert again.code == 0, again.err
    assert again.out == first.out and len(calls(log)) == paid
    # another synthesis command (the fake ignores its argument): only the synthesis runs again
    other = rolling(tmp_path, "--final-llm", f"{FAKE} again", "--max-calls", "0")[0]
    assert_one_line_error(other)
    assert other.code == 3 and "needs 1 more LLM call" in other.err
    assert f"{windows} of {windows} windows read back" in other.err
    assert len(calls(log)) == paid
    one = rolling(tmp_path, "--final-llm", f"{FAKE} again", "--max-calls", "1")[0]
    assert one.code == 0, one.err
    assert len(calls(log)) == paid + 1
    restart = rolling(tmp_path, "--restart", "--max-calls", str(paid - 1))[0]
    assert_one_line_error(restart)
    assert restart.code == 3 and f"needs {paid} LLM calls" in restart.err
    assert len(list((tmp_path / "run").glob("window-*.json"))) == windows  # nothing cleared
    assert (tmp_path / "run" / "final.json").exists()
    killed, killed_log = rolling(tmp_path, mode="kill-at=4", name="killed")
    assert killed.code == -9
    left = paid - 2  # window 1's analysis and compaction are stored
    refused = rolling(tmp_path, "--resume", "--max-calls", str(left - 1), name="killed")[0]
    assert_one_line_error(refused)
    assert refused.code == 3 and f"needs {left} more LLM calls" in refused.err
    assert f"1 of {windows} windows read back" in refused.err
    before = len(calls(killed_log))
    resumed = rolling(tmp_path, "--resume", "--max-calls", str(left), name="killed")[0]
    assert resumed.code == 0, resumed.err
    assert resumed.out == first.out and len(calls(killed_log)) - before == left


def test_emit_prompts_writes_json_lines_and_calls_nothing(tmp_path: Path) -> None:
    doc = contract(tmp_path / "c.md")
    result = analyze(str(doc), "--window-tokens", "400", "--emit-prompts")
    assert result.code == 0, result.err
    records = [json.loads(line) for line in result.out.splitlines()]
    assert len(records) >= 3 and [r["window"] for r in records] == list(range(1, len(records) + 1))
    text = doc.read_text()
    for record in records:
        start, end = record["new_chars"]
        assert text[start:end] in record["prompt"] and "{{MEMORY}}" in record["prompt"]
    as_json = analyze(str(doc), "--window-tokens", "400", "--emit-prompts", "--json")
    assert as_json.code == 0, as_json.err
    assert as_json.json() == records  # one JSON value: the same records as a list


def rolling(tmp_path: Path, *extra: str, mode: str = "", name: str = "run") -> tuple[Run, Path]:
    log = tmp_path / f"{name}.jsonl"
    doc = contract(tmp_path / "c.md")
    env = {"FAKE_LLM_LOG": str(log), "FAKE_LLM_MODE": mode}
    args = ("--window-tokens", "400", "--memory-chars", "1500", "--llm", FAKE)
    result = analyze(str(doc), *args, "--run-dir", str(tmp_path / name), *extra, env=env)
    return result, log


def test_a_rolling_run_prints_a_report_and_json(tmp_path: Path) -> None:
    result, log = rolling(tmp_path)
    assert result.code == 0, result.err
    report = result.out
    for heading in (
        "## Executive summary",
        "## Insights",
        "## Entities",
        "## Relationships",
        "## Flags",
    ):
        assert heading in report
    assert "summary over windows 1,2,3" in report and "Entity2 → follows → Entity1" in report
    prompts = calls(log)
    as_json, _ = rolling(tmp_path, "--json", name="json")
    value = as_json.json()
    assert isinstance(value, dict)
    assert set(value) >= {"plan", "windows", "memory", "graph", "report", "final"}
    assert len(value["windows"]) == len(value["plan"]["windows"]) == len(prompts) // 2
    assert value["report"] == report
    assert value["failed_windows"] == []


def test_failures_are_warned_reported_and_exit_4(tmp_path: Path) -> None:
    result, _log = rolling(tmp_path, mode="fail-window=2")
    assert result.code == 4
    assert "Traceback" not in result.err
    assert "window 2 failed after a retry" in result.err
    assert "## Failed steps" in result.out and "- window 2:" in result.out
    assert "summary over windows" in result.out  # the run went on to the final pass
    hang, _ = rolling(tmp_path, "--timeout", "1", mode="hang", name="hang")
    assert hang.code == 5 and "no answer within 1 s" in hang.err  # never answered: broken


def test_a_command_that_never_answers_stops_the_run_early_and_resumes(tmp_path: Path) -> None:
    """Every call fails (an expired API key): the run stops after its first 3 steps (a step is
    a call and its retry) with the command's last stderr line and exit 5; before, it paid for
    every step and exited 4, as when one window falls back."""
    whole, _ = rolling(tmp_path, name="whole")
    broken, log = rolling(tmp_path, mode="bad-key", name="broken")
    assert broken.code == 5
    errors = [line for line in broken.err.splitlines() if line.startswith("ctxopt: error:")]
    assert len(errors) == 1 and "Traceback" not in broken.err
    assert 'last error: "Error: 401 invalid api key" (exit code 1)' in errors[0]
    assert "--resume" in errors[0]
    assert len(calls(log)) == 6 and broken.out == ""
    fixed, _ = rolling(tmp_path, "--resume", name="broken")
    assert fixed.code == 0, fixed.err
    assert fixed.out == whole.out
    doc, log = tmp_path / "c.md", tmp_path / "one.jsonl"  # one window: 2 steps, both failed
    env = {"FAKE_LLM_LOG": str(log), "FAKE_LLM_MODE": "bad-key"}
    one = analyze(str(doc), "--llm", FAKE, "--run-dir", str(tmp_path / "one"), env=env)
    assert one.code == 5 and "2 steps of this run failed" in one.err and len(calls(log)) == 4


def test_a_command_that_answered_once_runs_every_window(tmp_path: Path) -> None:
    """Once a call has succeeded the command works: later failures fall back as before."""
    result, log = rolling(tmp_path, mode="fail-after=2")
    assert result.code == 4
    assert "window 3 failed after a retry" in result.err and "401 invalid api key" in result.err
    windows = len(list((tmp_path / "run").glob("window-*.json")))
    # window 1's two calls, then each later window's analysis and the synthesis, retried
    assert windows >= 3 and len(calls(log)) == 2 + 2 * (windows - 1) + 2


def test_an_interrupted_run_resumes_to_the_same_report(tmp_path: Path) -> None:
    whole, whole_log = rolling(tmp_path, name="whole")
    assert whole.code == 0, whole.err
    killed, killed_log = rolling(tmp_path, mode="kill-at=4", name="killed")
    assert killed.code == -9, killed.err  # the process died mid-run (SIGKILL)
    finished = sorted(p.name for p in (tmp_path / "killed").glob("window-*.json"))
    assert finished == ["window-0001.json"]  # calls 1-2 made window 1; call 4 killed it
    before = len(calls(killed_log))
    forgot, _ = rolling(tmp_path, name="killed")  # paid windows are never thrown away unasked
    assert_one_line_error(forgot)
    assert forgot.code == 2 and "--resume" in forgot.err and "--restart" in forgot.err
    assert "holds 1 stored window of an interrupted run" in forgot.err  # not "finished window(s)"
    assert len(calls(killed_log)) == before
    resumed, _ = rolling(tmp_path, "--resume", name="killed")
    assert resumed.code == 0, resumed.err
    assert "resuming after window 1" in resumed.err
    assert resumed.out == whole.out
    again = calls(killed_log)[before:]
    assert len(again) == len(calls(whole_log)) - 2  # window 1's two calls were not paid twice
    assert "This is window 1 of" not in "".join(again)


def test_a_finished_run_run_again_reads_its_report_back_and_restart_pays_again(
    tmp_path: Path,
) -> None:
    first, log = rolling(tmp_path)
    assert first.code == 0, first.err
    paid = len(calls(log))
    again, _ = rolling(tmp_path)  # the same command: its calls were paid for
    assert again.code == 0, again.err
    assert len(calls(log)) == paid
    assert again.out == first.out
    windows = len(list((tmp_path / "run").glob("window-*.json")))
    assert f"the {windows} windows of a finished run read back from the run folder" in again.err
    assert "--restart" in again.err
    as_json, _ = rolling(tmp_path, "--json")  # another output of the same run: no call either
    assert as_json.code == 0, as_json.err
    assert len(calls(log)) == paid
    assert json.loads(as_json.out)
    other, _ = rolling(tmp_path, "--final-llm", "false")  # another synthesis: only that runs
    assert other.code == 4 and "the final synthesis failed" in other.err
    assert len(calls(log)) == paid  # `false` logs nothing, and no window ran again
    restarted, _ = rolling(tmp_path, "--restart")
    assert restarted.code == 0, restarted.err
    assert len(calls(log)) == 2 * paid
    assert restarted.out == first.out


def test_resume_runs_again_a_failed_synthesis_and_the_windows_from_one_that_fell_back(
    tmp_path: Path,
) -> None:
    whole, _ = rolling(tmp_path, name="whole")
    assert whole.code == 0, whole.err
    failed, log = rolling(tmp_path, "--final-llm", "false", name="final")
    assert failed.code == 4 and "the final synthesis failed" in failed.err
    paid = len(calls(log))  # the windows' calls (`false` logs nothing)
    fixed, _ = rolling(tmp_path, "--resume", name="final")  # the synthesis with --llm now
    assert fixed.code == 0, fixed.err
    again = calls(log)[paid:]
    assert len(again) == 1 and "<memories>" in again[0]  # only the synthesis ran again
    assert fixed.out == whole.out

    broken, log = rolling(tmp_path, mode="fail-window=2", name="fell")
    assert broken.code == 4 and "window 2 failed" in broken.err
    paid = len(calls(log))
    healed, _ = rolling(tmp_path, "--resume", name="fell")
    assert healed.code == 0, healed.err
    assert "resuming after window 1" in healed.err
    again = calls(log)[paid:]
    assert "This is window 1 of" not in "".join(again)
    assert any("This is window 2 of" in prompt for prompt in again)
    assert healed.out == whole.out


def test_a_second_run_into_a_folder_in_use_is_refused_before_any_call(tmp_path: Path) -> None:
    from ctxopt.analyze.runfolder import run_lock

    with run_lock(tmp_path / "busy"):
        second, log = rolling(tmp_path, name="busy")
    assert_one_line_error(second)
    assert second.code == 2
    assert f"another analyze-doc run is using {tmp_path / 'busy'} (pid {os.getpid()})" in (
        second.err
    )
    assert calls(log) == []  # nothing was paid for
    after, _ = rolling(tmp_path, name="busy")  # released: the folder serves the next run
    assert after.code == 0, after.err


def varied(path: Path, paragraphs: int = 120) -> Path:
    """A document of varied sentences (not one template), made from a fixed seed."""
    import random

    rng = random.Random(7)
    who = ("The supplier", "The auditor", "Each carrier", "The board", "A processor", "The bank")
    what = (
        "must report outages",
        "shall encrypt backups",
        "may audit invoices",
        "will insure cargo",
        "shall delete logs",
        "must train staff",
        "may sublicense code",
    )
    when = ("every quarter", "within ten days", "before renewal", "on request", "each year")
    parts = []
    for number in range(paragraphs):
        if number % 10 == 0:
            parts.append(f"## Chapter {number // 10 + 1}")
        parts.append(
            " ".join(
                f"{rng.choice(who)} {rng.choice(what)} {rng.choice(when)} "
                f"in region {rng.randint(1, 40)}."
                for _ in range(4)
            )
        )
    path.write_text("\n\n".join(parts), encoding="utf-8")
    return path


@pytest.mark.slow
def test_the_offline_digest_fits_the_budget_with_the_real_embedder(tmp_path: Path) -> None:
    doc = varied(tmp_path / "c.md")
    result = analyze(
        str(doc), "--budget", "400", "--window-tokens", "1000", "--memory-chars", "800"
    )
    assert result.code == 0, result.err
    assert result.out.startswith("# Digest of")
    assert tokens.count(result.out) <= 400
    bullets = [line[2:] for line in result.out.splitlines() if line.startswith("- ")]
    assert len(bullets) >= 3 and len(set(bullets)) == len(bullets)
    value = analyze(str(doc), "--budget", "400", "--window-tokens", "1000", "--json").json()
    assert isinstance(value, dict) and value["digest_tokens"] <= 400 and len(value["windows"]) > 1


@pytest.mark.slow
def test_the_digest_of_the_shipped_documents_quotes_no_heading() -> None:
    """Before, `- # File: fixtures/documents/handbook.html` and `- # Field Service Handbook`
    were key points."""
    result = analyze(str(DOCS / "handbook.html"), str(DOCS / "agreement.pdf"), "--budget", "600")
    assert result.code == 0, result.err
    bullets = [line[2:] for line in result.out.splitlines() if line.startswith("- ")]
    assert "This handbook describes how Fabrikam technicians service wind turbines." in bullets
    assert not [b for b in bullets if b.startswith("#")]


@pytest.mark.slow
def test_a_budget_too_small_for_the_digest_is_exit_3_and_names_one_that_works(
    tmp_path: Path,
) -> None:
    """Before, --budget 99 was a usage error (exit 2) whatever the document, and --budget 120
    on long sentences printed the headers alone with exit 0."""
    from test_digest import long_sentences

    doc = tmp_path / "long.md"
    doc.write_text(long_sentences(), encoding="utf-8")
    small = analyze(str(doc), "--budget", "40")
    assert_one_line_error(small)
    assert small.code == 3 and "--budget 40 cannot hold" in small.err
    named = int(small.err.split("use --budget ")[1].split()[0])
    for budget in (named, 99, 120):
        works = analyze(str(doc), "--budget", str(budget))
        assert works.code == 0, works.err
        assert tokens.count(works.out) <= budget
        assert [line for line in works.out.splitlines() if line.startswith("- ")]


@pytest.mark.slow
def test_a_real_llm_command_runs_offline(tmp_path: Path) -> None:
    """`llm -m echo` (llm with the llm-echo plugin) is a real LLM CLI that runs offline: it
    answers JSON that is not the asked-for shape, so every step fails, and a run in which no
    step succeeded stops with exit 5 (the window's answers are kept)."""
    if shutil.which("llm") is None:
        pytest.fail("llm is in the test extra: pip install -e '.[test]'")
    env = {"LLM_USER_PATH": str(tmp_path / "llm-home")}
    doc = DOCS / "agreement.pdf"
    result = analyze(
        str(doc),
        "--llm",
        "llm -m echo --no-log",
        "--run-dir",
        str(tmp_path / "run"),
        "--timeout",
        "120",
        env=env,
    )
    assert result.code == 5, result.err
    assert "window 1 failed after a retry" in result.err and "gave no usable answer" in result.err
    record = json.loads((tmp_path / "run" / "window-0001.json").read_text())
    echoed = json.loads(record["answers"][0])
    assert "Northwind Traders supplies industrial sensors" in echoed["prompt"]  # via stdin
    assert "could not be used" in json.loads(record["answers"][1])["prompt"]  # the repair


def test_the_plan_and_digest_paths_never_import_torch(tmp_path: Path) -> None:
    doc = contract(tmp_path / "c.md")
    _, heavy = run_in_fresh_python(
        "import sys\n"
        "from ctxopt.cli import main\n"
        f"sys.argv = ['ctxopt', 'analyze-doc', {str(doc)!r}, '--plan']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "import ctxopt.analyze.digest, ctxopt.analyze.run, ctxopt.analyze.api\n"
    )
    assert heavy == []


def test_ctrl_c_keeps_the_finished_windows_and_says_how_to_resume(tmp_path: Path) -> None:
    whole, _ = rolling(tmp_path, name="whole")
    stopped, _ = rolling(tmp_path, mode="interrupt-at=4", name="stopped")
    assert_one_line_error(stopped)
    assert stopped.code == 130 and "--resume" in stopped.err
    assert (tmp_path / "stopped" / "window-0001.json").exists()
    resumed, _ = rolling(tmp_path, "--resume", name="stopped")
    assert resumed.code == 0 and resumed.out == whole.out


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")  # a zombie has ended (no init reaps it here)


def _default_ending_signals() -> None:
    """In the child: SIGTERM and SIGHUP end it, whatever this runner ignores (a run under
    nohup ignores SIGHUP, and ctxopt then rightly leaves it ignored)."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_run_ended_by_sigterm_or_sighup_kills_the_llm_command_it_started(
    tmp_path: Path, signum: int
) -> None:
    """The command runs in a session of its own (Ctrl-C reaches ctxopt alone, which kills
    it): until 2026-12-02 `timeout`'s SIGTERM or a closed terminal's SIGHUP ended ctxopt and
    left the command running for ever. The finished windows are kept for --resume."""
    pid_file = tmp_path / "llm.pid"
    hang = tmp_path / "hang_on_window_2.py"
    hang.write_text(
        "import os, sys, time\n"
        f"sys.argv = [{str(FAKE_LLM)!r}]\n"
        "prompt = sys.stdin.read()\n"
        f"if 'window 2 of' in prompt and not os.path.exists({str(pid_file)!r}):\n"
        f"    open({str(pid_file)!r} + '.new', 'w').write(str(os.getpid()))\n"
        f"    os.replace({str(pid_file)!r} + '.new', {str(pid_file)!r})\n"
        "    time.sleep(600)\n"
        "sys.stdin = __import__('io').StringIO(prompt)\n"
        f"exec(open({str(FAKE_LLM)!r}).read())\n"
    )
    doc = contract(tmp_path / "c.md")
    env = {**os.environ, "NO_COLOR": "1", "FAKE_LLM_LOG": str(tmp_path / "log.jsonl")}
    args = ["--window-tokens", "400", "--llm", f"{sys.executable} {hang}"]
    command = [sys.executable, "-m", "ctxopt.cli", "analyze-doc", str(doc), *args]
    run_dir = tmp_path / "run"
    process = subprocess.Popen(
        [*command, "--run-dir", str(run_dir)],
        env=env,
        stdout=subprocess.DEVNULL,
        preexec_fn=_default_ending_signals,  # as a terminal's shell starts it (not nohup's)
    )
    try:
        while not pid_file.exists() and process.poll() is None:
            time.sleep(0.1)
        llm = int(pid_file.read_text())
        process.send_signal(signum)
        assert process.wait(timeout=60) == -signum
        for _ in range(100):  # its group was killed before ctxopt ended
            if not _running(llm):
                break
            time.sleep(0.05)
        assert not _running(llm)
    finally:
        process.kill()
        with contextlib.suppress(NameError, ProcessLookupError):
            os.kill(llm, signal.SIGKILL)
    assert (run_dir / "window-0001.json").exists()
    resumed = run_cli(*command[3:], "--run-dir", str(run_dir), "--resume", env=env)
    assert resumed.code == 0, resumed.err
    assert "resuming after window 1" in resumed.err
