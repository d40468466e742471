"""`ctxopt query` end to end on the sample repository with the real default model."""

from __future__ import annotations

from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error
from helpers import commit_all, init_repo, sample_repo, write_files

pytestmark = pytest.mark.slow


def top(cli: CliRunner, repo: Path, task: str, *extra: str) -> list[dict]:
    result = cli("query", task, "--path", str(repo), "--json", *extra)
    assert result.code == 0, result.err
    return result.json()  # type: ignore[return-value]


def test_json_shape(indexed_repo: Path, cli: CliRunner) -> None:
    results = top(cli, indexed_repo, "fix save_inventory when the file is missing", "-k", "5")
    assert 1 <= len(results) <= 5
    required = {"file", "start_line", "end_line", "name", "kind", "tokens", "score", "reasons"}
    for item in results:
        assert required <= set(item)
        assert not item["file"].startswith("/")
        assert item["start_line"] <= item["end_line"]
    scores = [item["score"] for item in results]
    assert scores == sorted(scores, reverse=True)


def test_named_symbol_ranks_its_definition_first(indexed_repo: Path, cli: CliRunner) -> None:
    results = top(cli, indexed_repo, "fix save_inventory when the file is missing")
    assert results[0]["file"] == "inventory/storage.py"
    assert results[0]["name"].endswith("save_inventory")


def test_named_path_ranks_that_file_high(indexed_repo: Path, cli: CliRunner) -> None:
    results = top(cli, indexed_repo, "show prices with two decimals in web/src/format.ts")
    assert results[0]["file"] == "web/src/format.ts"


def test_a_traceback_frame_ranks_the_chunk_at_its_line_first(
    indexed_repo: Path, cli: CliRunner
) -> None:
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/checkout/inventory/storage.py", line 36, in load_inventory\n'
        "KeyError: 'version'"
    )
    results = top(cli, indexed_repo, traceback, "-k", "5")
    assert (results[0]["file"], results[0]["name"]) == ("inventory/storage.py", "load_inventory")
    assert results[0]["start_line"] <= 36 <= results[0]["end_line"]
    assert "holds a line the task points at" in results[0]["reasons"]
    warning = "warning: unused variable `handle`\n  --> inventory/storage.py:27:5"
    results = top(cli, indexed_repo, warning, "-k", "5")
    assert results[0]["name"] == "save_inventory"
    assert "holds a line the task points at" in results[0]["reasons"]
    assert not any("points at" in " ".join(r["reasons"]) for r in results[1:])


def test_a_line_pointer_goes_first_even_when_the_task_s_words_fit_other_code_better(
    tmp_path: Path, cli: CliRunner
) -> None:
    """The words of a pasted error fit eight functions best; the line it points at is in a
    function far below them that holds none of its words: that one comes first, as in a
    pack."""
    repo = init_repo(tmp_path / "pointer")
    errors = "".join(
        f"def raise_error_{i}(error):\n    raise ValueError(f'error {{error}} at step {i}')\n\n\n"
        for i in range(8)
    )
    filler = "".join(f"def fill_{i}(a):\n    return a + {i}\n\n\n" for i in range(50))
    quiet = "def add_rows(table, rows):\n" + "".join(f"    table.append({i})\n" for i in range(10))
    write_files(repo, {"pkg/steps.py": errors + filler + quiet})
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    line = (errors + filler).count("\n") + 3  # a line inside add_rows
    results = top(cli, repo, f"ValueError: error at step in pkg/steps.py:{line}:5", "-k", "3")
    assert results[0]["name"] == "add_rows"
    assert results[0]["reasons"][0] == "holds a line the task points at"
    assert all(r["name"].startswith("raise_error_") for r in results[1:])


def test_test_intent_pulls_in_tests(indexed_repo: Path, cli: CliRunner) -> None:
    plain = top(cli, indexed_repo, "load_inventory rejects an unknown version", "-k", "5")
    tests = top(cli, indexed_repo, "add a test for load_inventory with a corrupt file", "-k", "5")
    assert not any(item["kind"] == "test" for item in plain[:1])
    assert any(item["kind"] == "test" for item in tests)


def test_filters(indexed_repo: Path, cli: CliRunner) -> None:
    results = top(cli, indexed_repo, "reserve stock", "--lang", "typescript", "-k", "20")
    assert results and all(item["file"].endswith(".ts") for item in results)
    results = top(cli, indexed_repo, "load inventory", "--no-tests", "-k", "20")
    assert all(item["kind"] != "test" for item in results)
    results = top(cli, indexed_repo, "reserve", "--glob", "inventory/*", "-k", "20")
    assert results and all(item["file"].startswith("inventory/") for item in results)
    # gitignore syntax, as --include and --exclude: a folder name matches at any depth
    results = top(cli, indexed_repo, "client format", "--glob", "src", "-k", "20")
    assert results and all(item["file"].startswith("web/src/") for item in results)
    # until 2026-12-02 `./inventory/*` (as a shell completes it) and a lone `!inventory/**`
    # matched no path at all: "nothing relevant found"
    results = top(cli, indexed_repo, "reserve", "--glob", "./inventory/*", "-k", "20")
    assert results and all(item["file"].startswith("inventory/") for item in results)
    results = top(cli, indexed_repo, "reserve stock", "--glob", "!inventory/**", "-k", "20")
    assert results and not any(item["file"].startswith("inventory/") for item in results)


def test_filters_that_leave_no_hit_say_so(indexed_repo: Path, cli: CliRunner) -> None:
    # until 2026-12-02: "nothing relevant found in the index", the filter unnamed
    where = ("--path", str(indexed_repo))
    table = cli("query", "reserve stock", *where, "--glob", "nope/**")
    assert table.code == 0, table.err
    assert "--glob matched none of the " in table.err and " candidates" in table.err
    assert "nothing relevant" not in table.err
    both = cli("query", "reserve stock", *where, "--glob", "nope/**", "--no-tests", "--json")
    assert both.code == 0 and both.json() == []
    assert "the filters (--glob, --no-tests) matched none of the " in both.err


@pytest.mark.parametrize("command", ["query", "pack"])
def test_an_empty_glob_is_a_usage_error(indexed_repo: Path, cli: CliRunner, command: str) -> None:
    # until 2026-12-02 `--glob ""` (an unset shell variable) matched no path: no hit, exit 0
    result = cli(command, "reserve stock", "--path", str(indexed_repo), "--glob", "")
    assert_one_line_error(result)
    assert result.code == 2 and "--glob is empty" in result.err
    assert result.out == ""


@pytest.mark.parametrize("command", ["query", "pack"])
def test_a_glob_that_cannot_be_read_is_a_usage_error(
    indexed_repo: Path, cli: CliRunner, command: str
) -> None:
    # until 2026-12-02 `--glob '['` (an unclosed bracket) matched no path, silently
    result = cli(command, "reserve stock", "--path", str(indexed_repo), "--glob", "[")
    assert_one_line_error(result)
    assert result.code == 2 and "the glob '[' is not a valid pattern" in result.err
    assert result.out == ""
    escaped = cli(command, "reserve stock", "--path", str(indexed_repo), "--glob", "\\[x")
    assert escaped.code == 0, escaped.err  # a literal bracket, escaped, is a pattern


def test_an_include_that_cannot_be_read_leaves_the_index_as_it_was(
    indexed_repo: Path, cli: CliRunner, tmp_path: Path
) -> None:
    repo = sample_repo(tmp_path)
    assert cli("index", str(repo), "--quiet").code == 0
    before = sorted(p.name for p in (repo / ".ctxopt").iterdir())
    result = cli("index", str(repo), "--include", "src/[a-")
    assert_one_line_error(result)
    assert result.code == 2 and "is not a valid pattern" in result.err
    assert sorted(p.name for p in (repo / ".ctxopt").iterdir()) == before
    assert cli("query", "reserve stock", "--path", str(repo), "--json").code == 0


def test_explain_adds_factors(indexed_repo: Path, cli: CliRunner) -> None:
    results = top(cli, indexed_repo, "OutOfStockError message", "--explain", "-k", "3")
    assert "factors" in results[0] and "lexical" in results[0]["factors"]
    table = cli("query", "OutOfStockError message", "--path", str(indexed_repo), "--explain")
    assert table.code == 0
    assert "inventory/errors.py" in table.out


def test_stale_files_are_refreshed_or_warned(indexed_repo: Path, cli: CliRunner) -> None:
    extra = indexed_repo / "inventory" / "pricing.py"
    extra.write_text("def apply_bulk_discount(total, units):\n    return total * 0.9\n")
    try:
        warned = cli("query", "apply_bulk_discount", "--path", str(indexed_repo), "--no-refresh")
        assert warned.code == 0
        assert "1 file changed since indexing" in warned.err
        results = top(cli, indexed_repo, "apply_bulk_discount")
        assert results[0]["file"] == "inventory/pricing.py"
    finally:
        extra.unlink()


def test_the_summary_counts_one_candidate_in_the_singular(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "one")
    write_files(repo, {"shop.py": "def compute_total_price(items):\n    return sum(items)\n"})
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    result = cli("query", "compute_total_price", "--path", str(repo))
    assert result.code == 0, result.err
    assert "; 1 candidate\n" in result.err  # until 2026-12-02: "1 candidates"


def test_query_without_index_says_to_index(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "plain")
    result = cli("query", "anything", "--path", str(repo))
    assert_one_line_error(result)
    assert "ctxopt index" in result.err


def test_empty_query_is_rejected(indexed_repo: Path, cli: CliRunner) -> None:
    assert_one_line_error(cli("query", "  ", "--path", str(indexed_repo)))


def test_an_indexed_empty_repo_answers_with_no_results(tmp_path: Path, cli: CliRunner) -> None:
    repo = init_repo(tmp_path / "empty")
    assert cli("index", str(repo), "--quiet").code == 0
    result = cli("query", "retry delay", "--path", str(repo), "--json")
    assert result.code == 0, result.err
    assert result.json() == []
    packed = cli("pack", "fix the retry delay", "--path", str(repo), "--budget", "2000")
    assert packed.code == 0, packed.err
    assert "fix the retry delay" in packed.out


def test_unknown_filter_values_are_one_line_usage_errors(
    indexed_repo: Path, cli: CliRunner
) -> None:
    for flag, value in (("--kind", "funtion"), ("--lang", "klingon")):
        result = cli("query", "save inventory", "--path", str(indexed_repo), flag, value)
        assert_one_line_error(result)
        assert result.code == 2 and f"{flag} {value!r}" in result.err
    by_extension = cli(
        "query", "save inventory", "--path", str(indexed_repo), "--lang", "py", "--json"
    )
    assert by_extension.code == 0
    assert {h["language"] for h in by_extension.json()} == {"python"}


def test_table_and_explain_name_parts_of_a_long_function(tmp_path: Path, cli: CliRunner) -> None:
    """A long function indexed as parts reads `name (part N)`, never the internal `name#N`; JSON
    gives the function's own name and the part's number."""
    body = "\n".join(
        f"    value_{i} = compute_total(order_{i}, discount_rate_{i}, shipping_cost_{i})"
        for i in range(400)
    )
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "billing.py").write_text(f"def settle_invoices(orders):\n{body}\n    return 0\n")
    init_repo(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    table = cli("query", "discount_rate_350 shipping_cost_350", "--path", str(repo))
    assert table.code == 0, table.err
    assert "settle_invoices (part" in table.out
    assert "settle_invoices#" not in table.out
    explained = cli(
        "pack", "discount_rate_350", "--path", str(repo), "--budget", "600", "--explain"
    )
    assert explained.code == 0, explained.err
    assert "settle_invoices#" not in explained.err
    hits = top(cli, repo, "discount_rate_350 shipping_cost_350")
    assert hits[0]["name"] == "settle_invoices" and hits[0]["part"] > 1
    assert all("#" not in hit["name"] for hit in hits)
    packed = cli("pack", "discount_rate_350", "--path", str(repo), "--budget", "600", "--json")
    assert packed.code == 0, packed.err
    chunks = packed.json()["chunks"]
    assert chunks and all(c["name"] == "settle_invoices" for c in chunks)
    assert any(c["part"] > 1 for c in chunks)


def test_json_gives_a_long_chunk_the_lines_a_pack_excerpts(tmp_path: Path, cli: CliRunner) -> None:
    """A long function whose middle holds the task's words gets `excerpt`: those lines, the
    ones `pack` shows of it as an excerpt; a short function gets none."""
    body = [f"    step_{i} = ledger.post(entry_{i})" for i in range(150)]
    body[110] = "    refund_total = reconcile_chargeback(dispute_window, refund_total)"
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "ledger.py").write_text(
        "def close_books(ledger):\n" + "\n".join(body) + "\n    return ledger\n\n\n"
        "def reconcile(total):\n    return reconcile_chargeback(0, total)\n"
    )
    init_repo(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    results = top(cli, repo, "reconcile_chargeback ignores the dispute_window")
    by_name = {item["name"]: item for item in results}
    long_one = by_name["close_books"]
    excerpt = long_one["excerpt"]
    assert long_one["start_line"] < excerpt["start_line"] <= 112 <= excerpt["end_line"]
    assert excerpt["end_line"] - excerpt["start_line"] < 100
    assert "excerpt" not in by_name["reconcile"]
    table = cli("query", "reconcile_chargeback ignores the dispute_window", "--path", str(repo))
    assert f"the task's words at lines {excerpt['start_line']}-" in " ".join(table.out.split())
