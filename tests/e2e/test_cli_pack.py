"""`ctxopt pack` end to end: pipe-safe stdout, JSON, budgets, formats and diffs."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from clitools import CliRunner, Run, assert_one_line_error
from ctxopt import tokens
from ctxopt.types import DropReason
from helpers import commit_all, git, init_repo, sample_repo, write_files

pytestmark = pytest.mark.slow
TASK = "fix save_inventory when the file is missing"


def test_stdout_holds_only_the_prompt(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "3000")
    assert result.code == 0, result.err
    assert result.out.startswith("# Context")
    assert "def save_inventory" in result.out
    assert TASK in result.out
    assert "packed" in result.err and "packed" not in result.out
    assert tokens.count(result.out.rstrip("\n")) <= 3000


def test_glob_keeps_the_code_of_matching_paths_only(indexed_repo: Path, cli: CliRunner) -> None:
    # until 2026-12-02 `pack` had no --glob (the MCP pack tool had): a usage error
    def files(*globs: str) -> list[str]:
        flags = [arg for glob in globs for arg in ("--glob", glob)]
        result = cli(
            "pack", TASK, "--path", str(indexed_repo), "--budget", "3000", "--json", *flags
        )
        assert result.code == 0, result.err
        return [chunk["file"] for chunk in result.json()["chunks"]]  # type: ignore[index]

    assert any(f.startswith("inventory/") for f in files())
    assert files("tests/**") and all(f.startswith("tests/") for f in files("tests/**"))
    kept = files("!inventory/**")
    assert kept and not any(f.startswith("inventory/") for f in kept)
    none = cli("pack", TASK, "--path", str(indexed_repo), "--glob", "nope/**", "--json")
    assert none.code == 0, none.err
    warned = none.json()["warnings"]  # type: ignore[index]
    assert any(w.startswith("the glob filter matched none of the ") for w in warned), warned
    assert not any("no highly relevant code" in w for w in warned)  # (until 2026-12-02)


def test_lang_and_kind_keep_the_code_they_name_and_a_change_s_own(
    tmp_path: Path, cli: CliRunner
) -> None:
    # until 2026-12-02 `pack` had no --lang or --kind (query had): a usage error
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0

    def chunks(*flags: str) -> list[dict]:
        result = cli("pack", TASK, "--path", str(repo), "--budget", "3000", "--json", *flags)
        assert result.code == 0, result.err
        return result.json()["chunks"]  # type: ignore[index,no-any-return]

    def suffixes(picked: list[dict]) -> set[str]:
        return {Path(c["file"]).suffix for c in picked}

    assert suffixes(chunks()) > {".ts"}
    typescript = chunks("--lang", "TypeScript")
    assert typescript and suffixes(typescript) == {".ts"}
    functions = chunks("--kind", "Function", "--kind", "method")
    assert functions and {c["kind"] for c in functions} <= {"function", "method"}
    unknown = cli("pack", TASK, "--path", str(repo), "--kind", "funtion")
    assert_one_line_error(unknown)
    assert unknown.code == 2 and "--kind 'funtion'" in unknown.err
    storage = repo / "inventory" / "storage.py"
    storage.write_text(storage.read_text().replace("def load_inventory", "def load_inv2", 1))
    changed = chunks("--diff", "--lang", "go")
    assert {(c["file"], c["why_code"]) for c in changed if c["file"].endswith(".py")} == {
        ("inventory/storage.py", "changed")
    }
    assert ".go" in suffixes(changed)


def test_json_object(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "2500", "--json")
    assert result.code == 0, result.err
    data = result.json()
    for key in ("prompt", "tokens", "budget", "files", "chunks", "savings", "model", "intent",
                "confidence"):  # fmt: skip
        assert key in data
    assert data["tokens"] <= data["budget"] == 2500
    assert data["files"][0] == "inventory/storage.py"
    assert {"repo_tokens", "packed_tokens", "percentage", "cost_saved"} <= set(data["savings"])
    assert {"recommended", "reasoning", "estimated_cost"} <= set(data["model"])
    chunk = data["chunks"][0]
    assert {
        "file",
        "start_line",
        "end_line",
        "name",
        "kind",
        "tokens",
        "score",
        "compressed",
        "shown_lines",
    } <= set(chunk)
    for entry in data["chunks"]:
        first, last = entry["shown_lines"]
        assert entry["start_line"] <= first <= last <= entry["end_line"]
    assert data["intent"] == "bug_fix"


def test_output_file_and_formats(indexed_repo: Path, cli: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "prompt.xml"
    result = cli("pack", TASK, "--path", str(indexed_repo), "-f", "xml", "-o", str(target))
    assert result.code == 0, result.err
    assert result.out == ""
    text = target.read_text()
    assert (
        text.startswith("<prompt>\n<context>")
        and "<task>" in text
        and "<source>inventory/storage.py" in text
    )
    plain = cli("pack", TASK, "--path", str(indexed_repo), "-f", "plain").out
    assert "=== inventory/storage.py" in plain


def test_output_dash_is_stdout_and_an_empty_output_is_refused(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    dash = cli("pack", TASK, "--path", str(indexed_repo), "-o", "-", cwd=tmp_path)
    assert dash.code == 0, dash.err
    assert dash.out.startswith("# Context") and "def save_inventory" in dash.out
    assert not (tmp_path / "-").exists()
    empty = cli("pack", TASK, "--path", str(indexed_repo), "-o", "", cwd=tmp_path)
    assert_one_line_error(empty)
    assert empty.code == 2 and "-o is empty" in empty.err
    no_model = cli("pack", TASK, "--path", str(indexed_repo), "--model", "", cwd=tmp_path)
    assert_one_line_error(no_model)
    assert no_model.code == 2 and "--model is empty" in no_model.err
    for flag in ("--diff-ref", "--path"):  # `--diff-ref "$BASE"` with BASE unset
        unset = cli("pack", TASK, "--path", str(indexed_repo), flag, "", cwd=tmp_path)
        assert_one_line_error(unset)
        assert unset.code == 2 and f"{flag} is empty" in unset.err
    missing = cli("pack", TASK, "--path", str(indexed_repo), "-o")
    assert_one_line_error(missing)
    assert "(see `ctxopt pack --help`)" in missing.err


def test_model_budget_and_small_budget_error(indexed_repo: Path, cli: CliRunner) -> None:
    data = cli("pack", TASK, "--path", str(indexed_repo), "--model", "gpt-4o-mini", "--json").json()
    assert data["budget"] > 8000
    tiny = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "20")
    assert_one_line_error(tiny)
    assert "--budget" in tiny.err
    assert tiny.code == 3  # its own exit code: a script can retry with a larger budget
    # a budget in tokens wins over any model's window: a larger window is no way out
    assert "larger window" not in tiny.err  # (until 2026-12-02 it said to pick one)


def test_a_model_window_too_small_names_a_larger_window_as_a_way_out(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    models = tmp_path / "models.json"
    tiny = {
        "name": "tiny-model", "family": "custom", "context_window": 30, "max_output": 10,
        "input_price": 0.5, "output_price": 1.0, "tier": "cheap",
    }  # fmt: skip
    models.write_text(json.dumps([tiny]))
    env = {"CTXOPT_MODELS_FILE": str(models)}
    done = cli("pack", TASK, "--path", str(indexed_repo), "--model", "tiny-model", env=env)
    assert_one_line_error(done)
    assert done.code == 3
    assert "raise --budget to at least" in done.err
    assert "or pick a --model with a larger window" in done.err


def test_a_reserve_with_no_model_s_window_to_apply_to_is_said_to_do_nothing(
    indexed_repo: Path, cli: CliRunner
) -> None:
    # until 2026-12-02 it was ignored without a word
    where = ("--path", str(indexed_repo), "--json")
    alone = cli("pack", TASK, *where, "--reserve", "0.5")
    assert alone.code == 0, alone.err
    note = "--reserve has no effect without --model: the budget is 8,000 tokens"
    assert alone.json()["warnings"][0].startswith(note)  # type: ignore[index]
    assert alone.err.count(note) == 1
    given = cli("pack", TASK, *where, "--reserve", "0.5", "--model", "gpt-4o", "--budget", "3000")
    note = "--reserve has no effect with --budget: the budget is 3,000 tokens"
    assert given.json()["warnings"][0] == note  # type: ignore[index]
    applied = cli("pack", TASK, *where, "--reserve", "0.5", "--model", "gpt-4o")
    assert not any("--reserve" in w for w in applied.json()["warnings"])  # type: ignore[index]
    assert "--reserve" not in cli("pack", TASK, *where).err


def test_a_task_longer_than_the_budget_is_shortened_not_refused(
    indexed_repo: Path, cli: CliRunner
) -> None:
    steps = [f"DEBUG step {i}: loaded item {i}" for i in range(900)]
    error = "FileNotFoundError in save_inventory: the file is missing"
    log = "\n".join(["$ python -m inventory.cli save", *steps, error])
    assert tokens.count(log) > 2000
    result = cli("pack", log, "--path", str(indexed_repo), "--budget", "2000", "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert data["tokens"] <= 2000 and data["files"]
    prompt = data["prompt"]
    assert "$ python -m inventory.cli save" in prompt
    assert error in prompt
    assert re.search(r"\[\.\.\. [\d,]+ lines of the task \([\d,]+ tokens\) elided", prompt)
    assert "DEBUG step 450:" not in prompt
    assert "elided in the prompt" in result.err and "raise --budget" in result.err
    assert "def save_inventory" in prompt  # the room it leaves holds code
    small = cli("pack", log, "--path", str(indexed_repo), "--budget", "999")
    assert_one_line_error(small)
    assert small.code == 3 and "from 1,000 a long task is shortened" in small.err
    short = cli("pack", "save inventory", "--path", str(indexed_repo), "--budget", "30")
    assert_one_line_error(short)  # a short task is not shortened: no word of it (a new user
    assert short.code == 3 and "shortened" not in short.err  # read it as told the task was long)


def test_a_task_of_dash_is_read_from_standard_input(indexed_repo: Path, cli: CliRunner) -> None:
    report = f"{TASK}\nTraceback: FileNotFoundError in save_inventory\n"
    packed = cli("pack", "-", "--path", str(indexed_repo), "--budget", "3000", stdin=report)
    assert packed.code == 0, packed.err
    assert report.strip() in packed.out and "def save_inventory" in packed.out
    ranked = cli("query", "-", "--path", str(indexed_repo), "--json", stdin=report)
    assert ranked.code == 0, ranked.err
    assert "save_inventory" in ranked.out
    marked = cli("pack", "-", "--path", str(indexed_repo), "--json", stdin="\ufeff" + report)
    assert marked.code == 0 and "\ufeff" not in marked.json()["prompt"]
    empty = cli("pack", "-", "--path", str(indexed_repo), stdin="  \n")
    assert_one_line_error(empty)
    assert empty.code == 2 and "the task is empty" in empty.err


def test_a_task_argument_that_is_not_utf8_is_read_like_standard_input(
    indexed_repo: Path, cli: CliRunner
) -> None:
    """A task pasted from a Latin-1 log reaches argv as bytes that are not UTF-8."""
    task = os.fsdecode(b"fix save_inventory caf\xe9 crash")
    packed = cli("pack", task, "--path", str(indexed_repo), "--budget", "3000")
    assert packed.code == 0, packed.err
    assert "fix save_inventory caf\ufffd crash" in packed.out
    assert "def save_inventory" in packed.out
    saved = cli("stats", "--path", str(indexed_repo), "-t", task, "--json")
    assert saved.code == 0, saved.err
    assert [t["task"] for t in saved.json()["tasks"]] == ["fix save_inventory caf\ufffd crash"]


def test_small_budget_gives_signatures(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "600", "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert data["tokens"] <= 600
    assert any(c["fidelity"] == "signature" for c in data["chunks"])
    # in full only what costs about its signature: a chunk of a line or two (`StorageError`)
    full = [c for c in data["chunks"] if c["fidelity"] == "full"]
    assert all(c["end_line"] - c["start_line"] < 3 for c in full), full


def test_explain_goes_to_stderr(indexed_repo: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "1500", "--explain")
    assert result.code == 0
    assert "+ inventory/storage.py" in result.err
    assert "+ inventory/storage.py" not in result.out


def test_json_with_explain_lists_what_was_left_out_as_explain_does(
    indexed_repo: Path, cli: CliRunner
) -> None:
    """Until 2026-12-02 `--json --explain` gave the left-out candidates on stderr only."""
    args = ("pack", TASK, "--path", str(indexed_repo), "--budget", "700")
    plain = cli(*args, "--json")
    assert plain.code == 0, plain.err
    assert "left_out" not in plain.json()
    result = cli(*args, "--json", "--explain")
    assert result.code == 0, result.err
    data = result.json()
    rest = [line for line in result.err.splitlines() if line.startswith("- ... and ")]
    listed = [line for line in result.err.splitlines() if line.startswith("- ")]
    listed = [line for line in listed if line not in rest]
    assert data["left_out"] and len(data["left_out"]) == len(listed)
    unlisted = int(rest[0].split()[3]) if rest else 0  # "- ... and N lower-scored candidates"
    assert data["left_out_unlisted"] == unlisted
    for entry, line in zip(data["left_out"], listed, strict=True):
        assert line.startswith(f"- {entry['file']}:") and line.endswith(f": {entry['why']}")
    codes = {entry["why_code"] for entry in data["left_out"]}
    assert codes <= {reason.value for reason in DropReason}
    assert isinstance(data["left_out_unlisted"], int)


def test_diff_packs_the_change(indexed_repo: Path, cli: CliRunner) -> None:
    storage = indexed_repo / "inventory" / "storage.py"
    original = storage.read_text()
    storage.write_text(original.replace("def load_inventory", "def load_inventory_v2", 1))
    try:
        result = cli("pack", "review this change", "--path", str(indexed_repo),
                     "--diff-ref", "HEAD", "--json")  # fmt: skip
        assert result.code == 0, result.err
        data = result.json()
        assert "load_inventory_v2" in data["prompt"]
        assert "```diff" in data["prompt"]
        assert data["chunks"][0]["file"] == "inventory/storage.py"
        assert data["chunks"][0]["why_code"] == "changed"
        assert data["chunks"][0]["why"] == "touched by the change"
        explained = cli("pack", "review this change", "--path", str(indexed_repo),
                        "--diff-ref", "HEAD", "--explain")  # fmt: skip
        changed = [line for line in explained.err.splitlines() if "touched by the change" in line]
        # until 2026-12-02: `... touched by the change: touched by the change`
        assert changed and all(line.count("touched by the change") == 1 for line in changed)
    finally:
        storage.write_text(original)
    clean = cli("pack", "review", "--path", str(indexed_repo), "--staged")
    assert_one_line_error(clean)
    assert "the diff is empty: nothing staged" in clean.err


def test_a_change_without_new_lines_and_new_untracked_files_are_changes(
    tmp_path: Path, cli: CliRunner
) -> None:
    """A deletion, a rename and a file git does not track yet were `nothing changed`."""
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0

    def review(*flags: str) -> Run:
        return cli("pack", "review this change", "--path", str(repo), "--budget", "4000", *flags)

    git(repo, "rm", "-q", "inventory/models.py")
    deleted = review("--diff")
    assert deleted.code == 0, deleted.err
    assert "deleted file mode" in deleted.out and "diff --git a/inventory/models.py" in deleted.out
    git(repo, "reset", "-q", "--hard")
    git(repo, "mv", "inventory/storage.py", "inventory/store.py")
    renamed = review("--staged")
    assert renamed.code == 0, renamed.err
    assert "rename to inventory/store.py" in renamed.out
    git(repo, "reset", "-q", "--hard")
    write_files(repo, {"inventory/audit.py": "def audit_shelf_levels(shelf):\n    return 0\n"})
    new = cli("pack", "review my uncommitted work", "--path", str(repo), "--diff", "--json")
    assert new.code == 0, new.err
    data = new.json()
    assert "+def audit_shelf_levels(shelf):" in data["prompt"]
    assert data["chunks"][0]["file"] == "inventory/audit.py"
    assert data["chunks"][0]["why_code"] == "changed"


def test_diff_alone_leaves_the_task_to_the_positional_argument(
    indexed_repo: Path, cli: CliRunner
) -> None:
    storage = indexed_repo / "inventory" / "storage.py"
    original = storage.read_text()
    storage.write_text(original.replace("def load_inventory", "def load_inventory_v2", 1))
    try:
        result = cli("pack", "--path", str(indexed_repo), "--diff", "review this change",
                     "--json")  # fmt: skip
        assert result.code == 0, result.err
        data = result.json()
        assert "review this change" in data["prompt"]
        assert "(git HEAD)" in data["prompt"]
        assert "load_inventory_v2" in data["prompt"]
    finally:
        storage.write_text(original)


def test_help_says_how_to_name_the_ref(cli: CliRunner) -> None:
    result = cli("pack", "--help")
    assert result.code == 0
    assert "--diff-ref" in result.out and "against HEAD" in result.out


def test_diff_refreshes_once_and_not_at_all_with_no_refresh(tmp_path: Path, cli: CliRunner) -> None:
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0
    storage = repo / "inventory" / "storage.py"
    storage.write_text(
        storage.read_text().replace("def load_inventory", "def load_inventory_v2", 1)
    )
    kept = cli("pack", "review this change", "--path", str(repo), "--diff", "--no-refresh")
    assert kept.code == 0, kept.err
    assert "refreshing the index" not in kept.err
    assert "1 file changed since indexing" in kept.err
    still = cli("query", "load inventory", "--path", str(repo), "--no-refresh", "--json")
    assert "1 file changed since indexing" in still.err  # the index was left as it was
    counted = cli("pack", "load inventory", "--path", str(repo), "--no-refresh", "--json")
    assert counted.json()["stale_files"] == 1  # type: ignore[index]  # machines see it too
    # and the warning stderr gives (until 2026-12-02 `warnings` was [] beside it)
    stale = "1 file changed since indexing; the pack may be stale"
    assert counted.json()["warnings"] == [stale]  # type: ignore[index]
    assert counted.err.count(stale) == 1
    fresh = cli("pack", "review this change", "--path", str(repo), "--diff")
    assert fresh.code == 0, fresh.err
    assert fresh.err.count("refreshing the index") == 1
    assert "load_inventory_v2" in fresh.out


def test_summary_compares_the_pack_with_the_repository(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    usual = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "1000")
    assert usual.code == 0, usual.err
    repo_tokens = cli("pack", TASK, "--path", str(indexed_repo), "--budget", "1000", "--json")
    assert repo_tokens.json()["savings"]["repo_tokens"] > 1000  # the repository is the larger
    assert "% smaller than the repository (" in usual.err
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    (tiny / "a.py").write_text("def alpha():\n    return 1\n")
    assert cli("index", str(tiny), "--quiet").code == 0
    small = cli("pack", "alpha", "--path", str(tiny), "--budget", "2000")
    assert small.code == 0, small.err
    assert "less than the prompt" in small.err and "0.0% smaller" not in small.err


def test_a_prompt_saved_in_the_repository_is_not_indexed(tmp_path: Path, cli: CliRunner) -> None:
    """`ctxopt pack > prompt.md` inside the repository: the next index skips the saved
    prompts (every format) as generated instead of indexing copies of the code."""
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0
    task = "how are items reserved in the inventory"
    for name, fmt in (("prompt.md", "markdown"), ("prompt.xml", "xml"), ("prompt.txt", "plain")):
        made = cli("pack", task, "--path", str(repo), "--format", fmt, "-o", str(repo / name))
        assert made.code == 0, made.err
        assert (repo / name).stat().st_size > 1000
    stats = cli("index", str(repo), "--json")
    assert stats.code == 0, stats.err
    figures = stats.json()
    assert isinstance(figures, dict)
    assert figures["added"] == 0
    assert figures["skipped"].get("generated", 0) >= 3
    hits = cli("query", task, "--path", str(repo), "--json", "--top", "50").json()
    assert isinstance(hits, list)
    assert not [hit["file"] for hit in hits if hit["file"].startswith("prompt.")]


def test_a_cap_per_file_the_user_sets_holds_for_files_the_task_does_not_name(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = init_repo(tmp_path / "capped")
    body = "def retry_{i}(request):\n    return send_retry(request, {i})\n\n\n"
    write_files(
        repo,
        {
            "client/retry.py": "".join(body.format(i=i) for i in range(12)),
            "client/send.py": "def send_retry(request, attempt):\n    return request\n",
        },
    )
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    task = "retry the request when sending fails"

    def per_file(*flags: str, text: str = task) -> Counter[str]:
        result = cli("pack", text, "--path", str(repo), "--budget", "4000", "--json", *flags)
        assert result.code == 0, result.err
        chunks = result.json()["chunks"]
        return Counter(c["file"] for c in chunks if c["why_code"] != "used_type")

    assert per_file()["client/retry.py"] > 1  # by default the file the task is about is not capped
    assert max(per_file("--max-chunks-per-file", "1").values()) == 1
    assert max(per_file("--max-chunks-per-file", "3").values()) == 3
    named = per_file("--max-chunks-per-file", "1", text=f"{task} in client/retry.py")
    assert named["client/retry.py"] > 1  # a file the task names is not capped


def test_a_diff_ref_git_would_read_as_an_option_is_refused(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    target = tmp_path / "written_by_git"
    for ref in (f"--output={target}", "-p", "main\nHEAD"):
        result = cli("pack", TASK, "--path", str(indexed_repo), f"--diff-ref={ref}")
        assert_one_line_error(result)
        assert result.code == 2 and "is not a commit, branch or tag" in result.err
    assert not target.exists()


def test_a_change_s_code_goes_in_before_its_tests_config_docs_and_changelog(
    tmp_path: Path, cli: CliRunner
) -> None:
    """The chunks a change touches went in by path: on a large change `.github/` and
    `CHANGES.md` took the budget before any code."""
    repo = sample_repo(tmp_path)
    write_files(repo, {"CHANGES.md": "# Changes\n\n## 1.0\n\n- First release.\n"})
    commit_all(repo, "changelog")
    assert cli("index", str(repo), "--quiet").code == 0
    for path, line in {
        "CHANGES.md": "- Inventory saves are atomic.\n",
        "docs/design.md": "\nSaves write a temporary file first.\n",
        "config/settings.yaml": "atomic_saves: true\n",
        "tests/test_storage.py": "\n\ndef test_atomic_save():\n    assert True\n",
        "inventory/storage.py": "\n\ndef atomic_save(path):\n    return path\n",
    }.items():
        target = repo / path
        target.write_text(target.read_text() + line)
    result = cli("pack", "review this change", "--path", str(repo), "--diff", "--json")
    assert result.code == 0, result.err
    touched = [c["file"] for c in result.json()["chunks"] if c["why_code"] == "changed"]
    order = ["inventory/storage.py", "tests/test_storage.py", "config/settings.yaml"]
    order += ["docs/design.md", "CHANGES.md"]
    assert list(dict.fromkeys(touched)) == order


def test_exit_3_names_a_budget_that_packs_for_a_diff_and_none_for_a_weak_task(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0
    storage = repo / "inventory" / "storage.py"
    lines = "".join(f"    step_{i} = compute_step({i}, inventory, warehouse)\n" for i in range(300))
    added = f"\n\ndef long_migration(inventory, warehouse):\n{lines}"
    storage.write_text(storage.read_text() + added)
    review = ("pack", "review this change", "--path", str(repo), "--diff")
    refused = cli(*review, "--budget", "600")
    assert refused.code == 3, refused.err
    named = re.search(r"at least ([\d,]+)", refused.err)
    assert named is not None and named.group(1) == "1,000", refused.err  # the diff is cut there
    assert cli(*review, "--budget", "1000").code == 0
    weak = cli("pack", "zzqx", "--path", str(repo), "--budget", "150")  # nothing to pack at all
    assert weak.code == 0 and "0 chunks" in weak.err, weak.err
