"""Issue 15, telling the truth, through the CLI: the repository found from a subfolder,
a budget too small for one entry, the summary about the named model and the limit that
stopped selection, model names, unknown config keys, and clean chunk labels."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from clitools import CliRunner, assert_one_line_error, run_cli
from helpers import commit_all, git, init_repo, sample_repo, write_files

pytestmark = pytest.mark.slow
TASK = "fix save_inventory when the file is missing"
BILLING = """def invoice_total(prices, tax_rate):
    \"\"\"The invoice total: the prices summed and the tax rate applied.\"\"\"
    return round(sum(prices) * (1 + tax_rate), 2)
"""


@pytest.fixture(scope="module")
def from_subfolder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample repo (git), indexed at its root; commands run inside `inventory/`."""
    repo = sample_repo(tmp_path_factory.mktemp("truth"))
    result = run_cli("index", "--quiet", cwd=repo)
    assert result.code == 0, result.err
    return repo


def test_a_folder_left_by_a_failed_first_run_does_not_hide_the_index(
    tmp_path: Path, cli: CliRunner
) -> None:
    """A `.ctxopt` holding only a lock and a .gitignore (a first run that failed before its
    first table) is no index: the repository's own index above it is found."""
    repo = sample_repo(tmp_path)
    assert cli("index", "--quiet", cwd=repo).code == 0
    leftover = repo / "inventory" / ".ctxopt"
    leftover.mkdir()
    (leftover / "index.lock").write_text("")
    (leftover / ".gitignore").write_text("*\n")
    found = cli("query", "save inventory", "--json", cwd=repo / "inventory")
    assert found.code == 0, found.err
    assert found.json(), found.err


def test_index_from_a_subfolder_indexes_the_git_root(tmp_path: Path, cli: CliRunner) -> None:
    repo = sample_repo(tmp_path)
    result = cli("index", cwd=repo / "inventory")
    assert result.code == 0, result.err
    assert (repo / ".ctxopt").is_dir()
    assert not (repo / "inventory" / ".ctxopt").exists()
    assert f"using the repository at {repo.resolve()} (found by git" in result.err


def test_a_project_the_enclosing_repository_ignores_is_indexed_as_a_plain_folder(
    tmp_path: Path, cli: CliRunner
) -> None:
    """A home folder kept as a dotfiles repository ignoring `*`, and a project in it with no
    git of its own: until 2026-12-01 `index` there indexed the home's .bashrc into
    home/.ctxopt, and `index PROJECT` listed the project through git (all ignored: empty)."""
    home = init_repo(tmp_path / "home")
    write_files(home, {".gitignore": "*\n", ".bashrc": "export EDITOR=vi\n"})
    git(home, "add", "-f", ".gitignore", ".bashrc")
    git(home, "commit", "-q", "-m", "dotfiles")
    foo = home / "projects" / "foo"
    write_files(foo, {"pkg/billing.py": BILLING, "main.py": "from pkg.billing import total\n"})
    note = f"{foo.resolve()} is ignored by the enclosing git repository at {home.resolve()}"
    for cwd, path in ((foo, ()), (tmp_path, (str(foo),))):  # found from foo, then given
        result = cli("index", *path, "--json", cwd=cwd)
        assert result.code == 0, result.err
        assert f"{note}, so it is read as a plain folder" in result.err
        assert result.json()["files"] == 2, result.out
        assert result.json()["db_path"] == str((foo / ".ctxopt").resolve())
        assert (foo / ".ctxopt").is_dir() and not (home / ".ctxopt").exists()
    packed = cli("pack", "apply the tax rate to the invoice total", "--json", cwd=foo / "pkg")
    assert packed.code == 0, packed.err
    assert "pkg/billing.py" in packed.json()["files"], packed.out
    assert "def invoice_total" in packed.json()["prompt"]


def test_a_query_in_an_ignored_folder_of_an_indexed_repository_names_its_index(
    from_subfolder: Path, cli: CliRunner
) -> None:
    """A folder the repository ignores (build output) is read on its own, with no index of
    its own: the note names the repository's index and the flag that reaches it (found by a
    new user, who was told only to run `ctxopt index` there)."""
    repo = from_subfolder.resolve()
    exclude = repo / ".git" / "info" / "exclude"
    exclude.parent.mkdir(exist_ok=True)
    exclude.write_text("build/\n", encoding="utf-8")
    (repo / "build" / "sub").mkdir(parents=True)
    try:
        result = cli("query", TASK, "--no-refresh", cwd=repo / "build" / "sub")
        assert result.code == 1
        assert (
            f"{repo / 'build' / 'sub'} is ignored by the git repository at {repo}, so it is read "
            f"on its own; --path {repo} uses that repository's index"
        ) in result.err
        assert "no ctxopt index" in result.err
        given = cli("query", TASK, "--no-refresh", "--path", str(repo), cwd=repo / "build")
        assert given.code == 0, given.err
    finally:
        exclude.write_text("", encoding="utf-8")
        shutil.rmtree(repo / "build")


@pytest.mark.parametrize("command", ["query", "pack", "stats"])
def test_every_command_finds_the_index_from_a_subfolder(
    from_subfolder: Path, cli: CliRunner, command: str
) -> None:
    args = [command] if command == "stats" else [command, TASK, "--no-refresh"]
    result = cli(*args, "--json", cwd=from_subfolder / "inventory")
    assert result.code == 0, result.err
    assert "no ctxopt index" not in result.err


def test_path_still_wins_over_the_index_found_above(from_subfolder: Path, cli: CliRunner) -> None:
    result = cli("query", TASK, "--path", str(from_subfolder / "inventory"))
    assert_one_line_error(result)
    assert "no ctxopt index" in result.err


def test_outside_git_the_current_folder_is_the_root(tmp_path: Path, cli: CliRunner) -> None:
    write_files(tmp_path / "plain", {"a/b.py": "def b():\n    return 1\n"})
    result = cli("index", "--quiet", cwd=tmp_path / "plain" / "a")
    assert result.code == 0, result.err
    assert (tmp_path / "plain" / "a" / ".ctxopt").is_dir()


def test_budget_below_one_entry_is_exit_3_naming_the_numbers(
    from_subfolder: Path, cli: CliRunner
) -> None:
    result = cli("pack", TASK, "--path", str(from_subfolder), "--budget", "150")
    assert_one_line_error(result)
    assert result.code == 3
    found = re.search(r"budget of 150 tokens .*\((\d+) tokens\).*at least (\d+)", result.err)
    assert found is not None, result.err
    fixed, least = int(found.group(1)), int(found.group(2))
    assert fixed < 150 < least and "--budget" in result.err
    enough = cli("pack", TASK, "--path", str(from_subfolder), "--budget", str(least), "--json")
    assert enough.code == 0, enough.err
    assert enough.json()["files"]  # that budget holds code


def test_summary_talks_about_the_named_model(from_subfolder: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(from_subfolder), "--model", "claude-sonnet-4-5",
                 "--json")  # fmt: skip
    assert result.code == 0, result.err
    model = result.json()["model"]
    assert model["name"] == "claude-sonnet-4-5" and model["named"] is True
    assert model["context_window"] == 200_000 and "recommended" not in model
    assert "recommended" not in result.err
    assert "for claude-sonnet-4-5 (window 200,000, 20% kept for the answer)" in result.err
    plain = cli("pack", TASK, "--path", str(from_subfolder), "--budget", "3000", "--json")
    assert plain.json()["model"]["named"] is False
    assert "recommended model:" in plain.err


def test_summary_says_which_limit_stopped_selection(from_subfolder: Path, cli: CliRunner) -> None:
    roomy = cli("pack", TASK, "--path", str(from_subfolder), "--budget", "100000", "--json")
    assert roomy.code == 0, roomy.err
    data = roomy.json()
    assert data["stopped_by"] == "candidates"
    assert data["room_left"] == data["budget"] - data["tokens"] > 50_000
    assert f"stopped with {data['room_left']:,} tokens of the budget left" in roomy.err
    assert "the candidates ran out" in roomy.err
    tight = cli("pack", TASK, "--path", str(from_subfolder), "--budget", "1500", "--json")
    assert tight.json()["stopped_by"] == "budget" and "stopped with" not in tight.err


def test_model_names_in_any_case_aliases_and_every_close_match(
    from_subfolder: Path, cli: CliRunner
) -> None:
    where = ("--path", str(from_subfolder), "--json", "--no-refresh")
    meanings = {"GPT4o": "gpt-4o", "4o": "gpt-4o", "sonnet": "claude-sonnet-4-5",
                "Claude-Sonnet-4.5": "claude-sonnet-4-5", "opus": "claude-opus-4-1"}  # fmt: skip
    for typed, meant in meanings.items():
        result = cli("pack", TASK, "--model", typed, *where)
        assert result.code == 0, (typed, result.err)
        assert result.json()["model"]["name"] == meant
    ambiguous = cli("pack", TASK, "--model", "gpt-4", *where)
    assert_one_line_error(ambiguous)
    for name in ("gpt-4o,", "gpt-4o-mini", "gpt-4.1,", "gpt-4.1-mini"):
        assert name in ambiguous.err + ",", ambiguous.err


def test_choices_ignore_case(from_subfolder: Path, cli: CliRunner) -> None:
    result = cli("pack", TASK, "--path", str(from_subfolder), "--format", "XML",
                 "--compression", "Medium", "--budget", "3000")  # fmt: skip
    assert result.code == 0, result.err
    assert result.out.startswith("<prompt>")


def test_unknown_config_keys_warn_with_the_closest_key(tmp_path: Path, cli: CliRunner) -> None:
    repo = tmp_path / "repo"
    write_files(repo, {
        "app.py": "def run():\n    return 1\n",
        "pyproject.toml": "[tool.ctxopt]\nbudgett = 3000\n\n[tool.ctxopt.weights]\nsemantc = 0.1\n",
    })  # fmt: skip
    user = tmp_path / "xdg"
    write_files(user, {"ctxopt/config.toml": "max_chunk_per_file = 3\n"})
    result = cli("index", "--quiet", cwd=repo, env={"XDG_CONFIG_HOME": str(user)})
    assert result.code == 0, result.err
    err = " ".join(result.err.split())
    pyproject = f"{repo.resolve() / 'pyproject.toml'} [tool.ctxopt]"
    assert f"{pyproject}: unknown key 'budgett' ignored; did you mean 'budget'?" in err
    assert f"{pyproject}: unknown key 'weights.semantc' ignored; did you mean 'semantic'?" in err
    assert "unknown key 'max_chunk_per_file' ignored; did you mean 'max_chunks_per_file'?" in err
    assert str(user / "ctxopt" / "config.toml") in err
    query = cli("query", "run", "--json", cwd=repo, env={"XDG_CONFIG_HOME": str(user)})
    assert query.code == 0 and "did you mean 'budget'?" in query.err


OVERLOADS = '''import typing as t


@t.overload
def stream_with_context(gen: t.Iterator[str]) -> t.Iterator[str]: ...


@t.overload
def stream_with_context(gen: t.Callable[[], t.Iterator[str]]) -> t.Callable[[], str]: ...


def stream_with_context(gen):
    """Keep the request context while a response streams."""
    return gen
'''
RETRY_TESTS = """import test from 'ava';
import ky from '../source/index.js';

test('doesn\\'t retry on 404', async t => {
\tt.is(await ky.get('x').text(), 'x');
});

test("respect the \\"Retry-After\\" header", async t => {
\tt.pass();
});
"""
KY = """import {merge} from './merge.js';
const LIMIT = 3;

export function firstStep(): number {
\treturn LIMIT;
}

const OTHER = merge(LIMIT);

export function secondStep(): number {
\treturn OTHER;
}
"""


def _manual() -> str:
    sections = "".join(
        f"  - title: Filter {i}\n    body: |\n      The filter number {i} reads its input.\n"
        f"      It writes one value for each value it reads, in order.\n\n"
        for i in range(120)
    )
    return (
        "headline: Manual\n\nmanpage_intro: |\n  jq is a filter.\n\n"
        f"manpage_epilogue: |\n  See also the wiki.\n\nsections:\n{sections}"
    )


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("labels") / "repo"
    write_files(repo, {"src/api.py": OVERLOADS, "test/retry.ts": RETRY_TESTS,
                       "source/core/Ky.ts": KY, "docs/manual.yml": _manual()})  # fmt: skip
    init_repo(repo)
    commit_all(repo)
    result = run_cli("index", "--quiet", cwd=repo)
    assert result.code == 0, result.err
    return repo


def _labels(repo: Path, task: str) -> list[str]:
    result = run_cli("pack", task, "--path", str(repo), "--budget", "30000", "--no-overview")
    assert result.code == 0, result.err
    return [line for line in result.out.splitlines() if re.search(r"\(lines \d+-\d+", line)]


def test_overloads_are_numbered_in_a_merged_label(labelled: Path) -> None:
    labels = _labels(labelled, "how does stream_with_context keep the context")
    merged = [line for line in labels if "stream_with_context" in line]
    assert merged == [
        "src.api, stream_with_context (1), stream_with_context (2), stream_with_context (3) "
        "(lines 1-14)"
    ], labels


def test_module_code_is_named_once_in_a_merged_label(labelled: Path) -> None:
    labels = _labels(labelled, "firstStep and secondStep of LIMIT")
    merged = [line for line in labels if "firstStep" in line]
    assert merged == ["source.core.Ky, firstStep, secondStep (lines 1-12)"], labels


def test_test_names_are_the_test_title_unescaped(labelled: Path, cli: CliRunner) -> None:
    result = cli("query", "retry on 404 Retry-After header", "--path", str(labelled), "--json",
                 "--kind", "TEST")  # fmt: skip
    assert result.code == 0, result.err
    names = {hit["name"] for hit in result.json()}  # type: ignore[attr-defined]
    assert names == {"doesn't retry on 404", 'respect the "Retry-After" header'}
    labels = _labels(labelled, "retry on 404 Retry-After header")
    assert not [line for line in labels if "test test" in line or "\\" in line], labels


def test_yaml_pieces_are_named_after_their_own_key(labelled: Path, cli: CliRunner) -> None:
    result = cli("query", "filter number reads its input", "--path", str(labelled), "--json",
                 "--kind", "config", "-k", "50")  # fmt: skip
    assert result.code == 0, result.err
    hits = result.json()
    assert isinstance(hits, list) and hits
    in_sections = [hit for hit in hits if hit["start_line"] >= 9]  # `sections:` is line 9
    assert in_sections, hits
    for hit in in_sections:
        assert hit["name"] == "sections" and hit["part"] >= 1, hits


def test_json_output_keeps_its_notes_on_stderr(from_subfolder: Path, cli: CliRunner) -> None:
    """--json puts the product on stdout; what a person is told still goes to stderr."""
    inside = from_subfolder / "inventory"
    indexed = cli("index", "--json", cwd=inside)
    assert indexed.code == 0 and indexed.json()["files"] > 0  # type: ignore[index]
    assert f"using the repository at {from_subfolder.resolve()}" in indexed.err
    found = cli("query", "save inventory", "--json", cwd=inside)
    assert found.code == 0 and found.json()
    assert found.err.strip().splitlines()[-1].startswith("intent: ")
