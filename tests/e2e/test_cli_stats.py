"""`ctxopt stats` end to end: the index view, savings per task in every format, the CI
gates both ways, growth against a baseline, and tasks files good and bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error, run_cli
from ctxopt import tokens
from ctxopt.pack.models import price_source
from helpers import commit_all, sample_repo, write_files

pytestmark = pytest.mark.slow
TASK = "fix save_inventory when the file is missing"
ODD_TASK = "add a CSV | <b>export</b> *now* &amp; save"
DATE = price_source().date


@pytest.mark.parametrize("command", ["index", "query", "pack", "stats"])
def test_every_command_takes_the_common_options(command: str, cli: CliRunner) -> None:
    out = cli(command, "--help").out
    for option in ("--path", "--db", "--json", "--quiet"):
        assert option in out, (command, option)


def test_index_view_quiet(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("stats", "--path", str(indexed_repo), "--quiet", "--depth", "2", "--top", "3")
    assert result.code == 0, result.err
    assert result.err == ""
    assert "folders (depth 2)" in result.out and "largest files" in result.out
    assert "inventory" in result.out and "compression per level" in result.out
    assert "cl100k_base" in result.out and DATE in result.out


def test_markdown_for_github(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli(
        "stats", "--path", str(indexed_repo), "-t", TASK, "-t", ODD_TASK, "--markdown",
        "--budget", "1500", "--model", "gpt-5",
    )  # fmt: skip
    assert result.code == 0, result.err
    text = result.out
    assert "\x1b[" not in text and "━" not in text
    assert "| task | repo tokens | packed | saved | model |" in text
    assert "| --- | ---: |" in text
    escaped = r"add a CSV \| &lt;b&gt;export&lt;/b&gt; \*now\* &amp;amp; save"
    assert escaped in text  # escaped, one cell
    assert "**total (2 tasks)**" in text
    assert "cl100k\\_base" in text and DATE in text
    # ctxopt's own command stays code (GitHub showed "\`ctxopt tune\`" with its backticks)
    assert "Ranking weights: defaults (`ctxopt tune` fits them" in text
    rows = [line for line in text.splitlines() if line.startswith("| fix save")]
    assert len(rows) == 1 and rows[0].count(" | ") == 7 and "gpt-5" in rows[0]


def test_top_limits_the_folder_tables_in_every_format_and_0_drops_them(
    indexed_repo: Path, cli: CliRunner
) -> None:
    def folder_rows(markdown: str) -> list[str]:
        after = markdown.split("**Folders**", 1)[1].split("**Largest files**", 1)[0]
        return [line for line in after.splitlines() if line.startswith("| ") and "---" not in line]

    one = cli("stats", "--path", str(indexed_repo), "--markdown", "--top", "1")
    assert one.code == 0, one.err
    assert len(folder_rows(one.out)) == 1 + 1  # the header and one folder
    none = cli("stats", "--path", str(indexed_repo), "--markdown", "--top", "0")
    assert none.code == 0, none.err
    assert "**Folders**" not in none.out and "**Largest files**" not in none.out
    table = cli("stats", "--path", str(indexed_repo), "--top", "0")
    assert (
        table.code == 0 and "folders (depth" not in table.out and "largest files" not in table.out
    )


def test_json_report(indexed_repo: Path, cli: CliRunner, tmp_path: Path) -> None:
    saved = tmp_path / "reports" / "main" / "report.json"  # missing folders are made
    result = cli(
        "stats", "--path", str(indexed_repo), "-t", TASK, "--json", "--budget", "1200",
        "--json-file", str(saved),
    )  # fmt: skip
    assert result.code == 0, result.err
    data = result.json()
    assert isinstance(data, dict) and json.loads(saved.read_text())["tasks"] == data["tasks"]
    assert data["tokens_counted_with"] == {"encoding": "cl100k_base", "exact": True}
    assert data["prices"]["date"] == DATE and data["prices"]["model"] == "claude-sonnet-4-5"
    (row,) = data["tasks"]
    assert row["task"] == TASK and row["budget"] == 1200
    assert row["packed_tokens"] <= 1200 * 1.0 / 1.2 + 1  # sonnet's factor shrinks the budget
    packed = run_cli("pack", TASK, "--path", str(indexed_repo), "--budget", "1200",
                     "--model", "claude-sonnet-4-5")  # fmt: skip
    assert row["packed_tokens"] == tokens.count(packed.out.rstrip("\n"))
    assert row["repo_tokens"] == data["tokens"]
    assert row["saved_percent"] == pytest.approx(
        100 * (1 - row["packed_tokens"] / row["repo_tokens"]), abs=0.01
    )
    assert row["repo_cost"] == pytest.approx(row["repo_tokens"] * 1.2 * 3.0 / 1e6, abs=1e-6)
    assert data["totals"]["packed_tokens"] == row["packed_tokens"]
    levels = [level["level"] for level in data["compression"]["levels"]]
    assert levels == ["none", "light", "medium", "aggressive"]
    assert sum(f["tokens"] for f in data["folders"]) == data["tokens"]
    assert data["gates"] == [] and data["baseline"] is None


def test_gates_both_ways(indexed_repo: Path, cli: CliRunner) -> None:
    base = ["stats", "--path", str(indexed_repo), "-t", TASK, "--budget", "1000", "--quiet"]
    passing = cli(*base, "--fail-under", "1", "--max-repo-tokens", "1000000")
    assert passing.code == 0, passing.err
    assert "gate failed" not in passing.err
    failing = cli(*base, "--fail-under", "99.9", "--max-repo-tokens", "100", "--json")
    assert failing.code == 1
    lines = [line for line in failing.err.splitlines() if not line.startswith("warning: ")]
    assert len(lines) == 2, failing.err
    assert lines[0].startswith("ctxopt: gate failed: --fail-under 99.9: task")
    assert "points under the limit" in lines[0]
    assert lines[1].startswith("ctxopt: gate failed: --max-repo-tokens 100: the repository")
    assert [g["gate"] for g in failing.json()["gates"]] == ["fail-under", "max-repo-tokens"]


def test_baseline_growth_after_a_file_grows(tmp_path: Path, cli: CliRunner) -> None:
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0
    baseline = tmp_path / "baseline.json"
    first = cli("stats", "--path", str(repo), "-t", TASK, "--json-file", str(baseline), "-q")
    assert first.code == 0, first.err
    before = json.loads(baseline.read_text())
    grown = (repo / "inventory" / "storage.py").read_text() + "".join(
        f"\n\ndef helper_{n}(value):\n    return value + {n}\n" for n in range(40)
    )
    write_files(repo, {"inventory/storage.py": grown})
    commit_all(repo, "grow storage")
    args = ["stats", "--path", str(repo), "-t", TASK, "--baseline", str(baseline)]
    report = cli(*args, "--json")
    assert report.code == 0, report.err
    diff = report.json()["baseline"]
    (folder,) = [g for g in diff["folders"] if g["subject"] == "inventory"]
    old = next(f["tokens"] for f in before["folders"] if f["folder"] == "inventory")
    assert folder["before"] == old and folder["after"] > old
    assert diff["repository"]["change"] == folder["change"] > 0
    assert [t["subject"] for t in diff["tasks"]] == [TASK]
    markdown = cli(*args, "--markdown")
    assert "### Growth since the baseline" in markdown.out and "| inventory |" in markdown.out
    terminal = cli(*args)
    assert "growth since" in terminal.out and "inventory" in terminal.out
    assert cli(*args, "--max-growth", "1000", "-q").code == 0
    gated = cli(*args, "--max-growth", "0.5", "-q")
    assert gated.code == 1
    assert "ctxopt: gate failed: --max-growth 0.5: repository grew" in gated.err


def test_tasks_files_in_each_form(indexed_repo: Path, cli: CliRunner, tmp_path: Path) -> None:
    files = {
        "tasks.txt": f"# tasks\n{TASK}\n\nexplain the report command\n",
        "tasks.yml": f"- {TASK}\n- task: explain the report command\n  budget: 900\n"
        "  model: gpt-5-mini\n",
        "tasks.json": json.dumps({"tasks": [TASK, {"task": "explain the report command",
                                                   "budget": 900, "model": "gpt-5-mini"}]}),
    }  # fmt: skip
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        result = cli("stats", "--path", str(indexed_repo), "--tasks-file", str(path), "--json")
        assert result.code == 0, (name, result.err)
        rows = result.json()["tasks"]
        assert [r["task"] for r in rows] == [TASK, "explain the report command"], name
        if name != "tasks.txt":
            assert (rows[1]["budget"], rows[1]["model"]) == (900, "gpt-5-mini")
            assert rows[0]["model"] == "claude-sonnet-4-5"


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        (None, "", "does not exist"),
        ("bad.yml", "- task: [unclosed\n", "is not valid YAML"),
        ("model.yml", "- task: x\n  model: gpt-99-ultra\n", "unknown model 'gpt-99-ultra'"),
    ],
)
def test_bad_tasks_files_exit_2(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path, name: str | None, text: str, words: str
) -> None:
    path = tmp_path / (name or "missing.yml")
    if name:
        path.write_text(text)
    result = cli("stats", "--path", str(indexed_repo), "--tasks-file", str(path))
    assert result.code == 2
    assert_one_line_error(result)
    assert words in result.err and result.out == ""


def test_bad_flags_exit_2(indexed_repo: Path, cli: CliRunner) -> None:
    both = cli("stats", "--path", str(indexed_repo), "--json", "--markdown")
    assert both.code == 2 and "exclude each other" in both.err
    assert_one_line_error(both)
    untasked = cli("stats", "--path", str(indexed_repo), "--fail-under", "50")
    assert untasked.code == 2 and "--tasks-file" in untasked.err
    growth = cli("stats", "--path", str(indexed_repo), "--max-growth", "5")
    assert growth.code == 2 and "--baseline" in growth.err
    model = cli("stats", "--path", str(indexed_repo), "-t", TASK, "--model", "nope-model")
    assert model.code == 2
    assert_one_line_error(model)


def test_a_json_file_that_cannot_be_written_is_refused_before_any_task_is_packed(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    """Until 2026-12-02 every task was packed first (its warnings printed), then the write
    failed; a file in the way of its folder read `File exists`."""
    in_the_way = tmp_path / "report"
    in_the_way.write_text("")
    for target, words in (
        (tmp_path, f"--json-file {tmp_path} is a folder; give a file name"),
        (
            in_the_way / "r.json",
            f"cannot create the folder {in_the_way} for --json-file {in_the_way / 'r.json'}: "
            "a file is in the way",
        ),
    ):
        result = cli("stats", "--path", str(indexed_repo), "-t", "x", "--json-file", str(target))
        assert_one_line_error(result)  # no warning of the task's pack before it
        assert result.code == 2 and words in result.err and result.out == ""


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (("--fail-under", "150", "-t", TASK), "--fail-under must be a percentage from 0 to 100"),
        (("--fail-under", "-1", "-t", TASK), "--fail-under must be a percentage from 0 to 100"),
        (("--max-repo-tokens", "-1"), "--max-repo-tokens must be 0 or more"),
        (("--compression-sample", "-1"), "--compression-sample must be 0 or more"),
        (("--baseline", "b.json", "--max-growth", "nan"), "--max-growth must be a finite"),
        (("--baseline", "b.json", "--max-growth", "inf"), "--max-growth must be a finite"),
        (("-t", TASK, "--model", ""), "--model is empty"),
    ],
)
def test_numbers_out_of_range_exit_2(
    indexed_repo: Path, cli: CliRunner, flags: tuple[str, ...], words: str
) -> None:
    result = cli("stats", "--path", str(indexed_repo), *flags)
    assert_one_line_error(result)
    assert result.code == 2 and words in result.err and result.out == ""


def test_a_tasks_file_budget_too_small_names_the_task_and_its_budget(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    tasks = tmp_path / "small.yml"
    tasks.write_text(f"- task: {TASK}\n- task: tiny budget here\n  budget: 50\n")
    result = cli("stats", "--path", str(indexed_repo), "--tasks-file", str(tasks))
    assert_one_line_error(result)
    assert result.code == 3
    assert "task 2 (tiny budget here)" in result.err
    assert "the budget of 50 " in result.err
    # --budget does not reach a task with its own budget: the message names the entry's
    assert "raise its tasks-file `budget` to at least" in result.err
    assert "--budget" not in result.err
    assert "larger window" not in result.err  # a budget in tokens: no model's window counts


def test_a_too_small_report_budget_names_the_flag(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    tasks = tmp_path / "model.yml"
    tasks.write_text("- task: tiny budget here\n  model: gpt-4o\n")
    result = cli("stats", "--path", str(indexed_repo), "--tasks-file", str(tasks), "-b", "50")
    assert_one_line_error(result)
    assert result.code == 3
    assert "raise --budget to at least" in result.err and "tasks-file" not in result.err


def test_a_tasks_file_with_a_byte_order_mark_or_in_utf16_is_read(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    marked = tmp_path / "marked.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + TASK.encode() + b"\n")
    wide = tmp_path / "wide.txt"
    wide.write_text(TASK + "\n", encoding="utf-16")  # what PowerShell's `>` writes
    for tasks in (marked, wide):
        result = cli("stats", "--path", str(indexed_repo), "--tasks-file", str(tasks), "--json")
        assert result.code == 0, result.err
        assert [t["task"] for t in result.json()["tasks"]] == [TASK]


def test_a_small_index_size_is_shown_in_kb(indexed_repo: Path, cli: CliRunner) -> None:
    exact = json.loads(cli("stats", "--path", str(indexed_repo), "--json").out)["size_bytes"]
    assert isinstance(exact, int) and 1000 < exact < 999_950  # JSON: exact bytes
    shown = f"{exact / 1000:.1f} KB on disk"
    text = cli("stats", "--path", str(indexed_repo), "--top", "0").out
    assert f"({shown})" in text and "MB" not in text
    markdown = cli("stats", "--path", str(indexed_repo), "--top", "0", "--markdown").out
    assert f"index {shown};" in markdown


def big_class_module() -> str:
    """A class big enough to be split: its outline is a chunk beside its methods."""
    lines = ["class Engine:", '    """Runs queued jobs."""', ""]
    for i in range(40):
        lines += [f"    def stage_{i}(self, job):", f'        """Stage {i} of a job."""']
        lines += [f"        job.record({i}, step={j}, total=self.total_{j})" for j in range(10)]
        lines.append("")
    return "\n".join(lines) + "\n"


def test_the_compression_line_says_class_outlines_are_left_out(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = sample_repo(tmp_path)
    write_files(repo, {"engine.py": big_class_module()})
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    done = cli("stats", "--path", str(repo), "--json")
    assert done.code == 0, done.err
    report = json.loads(done.out)
    c = report["compression"]
    assert c["outline_chunks"] >= 1 and not c["sampled"]
    assert c["index_chunks"] + c["outline_chunks"] == report["chunks"]  # the numbers agree
    assert c["index_tokens"] + c["outline_tokens"] == report["tokens"]
    outlines = "class outline" + ("" if c["outline_chunks"] == 1 else "s")
    line = (
        f"all {c['index_chunks']:,} code chunks ({c['index_tokens']:,} tokens; "
        f"{c['outline_chunks']:,} {outlines} of {c['outline_tokens']:,} tokens left out)"
    )
    for flags in ((), ("--markdown",)):
        assert line in cli("stats", "--path", str(repo), "--top", "0", *flags).out, flags


def test_max_growth_gates_the_repository_not_a_folder_as_readme_says(
    tmp_path: Path, cli: CliRunner
) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "Folders are shown, never gated, however much one grew" in readme
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0
    baseline = tmp_path / "baseline.json"
    assert cli("stats", "--path", str(repo), "--json-file", str(baseline), "-q").code == 0
    settings = repo / "config" / "settings.yaml"
    extra = "".join(f"\nregion_{n}:\n  warehouse: north-{n}\n  dock: {n}\n" for n in range(12))
    settings.write_text(settings.read_text(encoding="utf-8") + extra, encoding="utf-8")
    commit_all(repo, "grow the settings")
    assert cli("index", str(repo), "--quiet").code == 0
    args = ["stats", "--path", str(repo), "--baseline", str(baseline), "--max-growth", "50"]
    report = cli(*args, "--json")
    diff = report.json()["baseline"]
    (folder,) = [g for g in diff["folders"] if g["subject"] == "config"]
    assert folder["percent"] > 50 > diff["repository"]["percent"] > 0
    assert report.code == 0, report.err  # the folder grew past the limit: not gated


def test_a_task_shortened_to_fit_is_warned_and_cut_in_the_table(
    indexed_repo: Path, cli: CliRunner
) -> None:
    long_task = " ".join(["fix save_inventory when the file is missing"] * 600)
    args = ("stats", "--path", str(indexed_repo), "-t", long_task, "--budget", "3000", "-q")
    shown = cli(*args, "--markdown")
    assert shown.code == 0, shown.err
    assert "warning: task 1 (fix save_inventory when the file is mis…): the task takes" in shown.err
    row = next(line for line in shown.out.splitlines() if line.startswith("| fix save"))
    assert len(row) < 400 and "…" in row  # not the whole 27,000 characters
    data = cli(*args, "--json").json()
    assert any("the task takes more of the budget" in w for w in data["warnings"])  # type: ignore[index,union-attr]
