"""Help that teaches, and a README that matches it.

Commands are read from the typer app, so a command registered later is checked too: its
`--help` needs examples, and README needs a `### name` section naming its options.
"""

from __future__ import annotations

import json
import re

import pytest

from clitools import CliRunner, run_cli
from ctxopt.cli import app
from helpers import ROOT

COMMANDS = tuple(sorted(str(info.name) for info in app.registered_commands))
SHARED = ("--path", "--db", "--json", "--quiet")  # README: every command takes them
# analyze-doc reads documents, not a repository: it has no index to find or place.
# mcp's stdout is the protocol: it has no JSON output of its own.
NOT_TAKEN = {"analyze-doc": frozenset({"--path", "--db"}), "mcp": frozenset({"--json"})}
OPTION_LINE = re.compile(r"^\s+(?:-\w, )?(--[a-z][\w-]*)", re.M)
OFF_SWITCH = re.compile(r"^\s+--[a-z][\w-]* / (--no-[a-z][\w-]*)", re.M)  # --rerank / --no-rerank
OPTION_MENTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def help_text(command: str) -> str:
    done = run_cli(command, "--help", env={"COLUMNS": "100"})
    assert done.code == 0, done.err
    assert done.err == ""
    return done.out


def help_options(command: str) -> set[str]:
    text = help_text(command)
    return (set(OPTION_LINE.findall(text)) | set(OFF_SWITCH.findall(text))) - {"--help"}


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def readme_section(command: str) -> str:
    """README's `### command` section, without the examples of other commands it quotes."""
    found = re.search(rf"^### {re.escape(command)}\n(.*?)(?=^#{{1,3}} |\Z)", readme(), re.M | re.S)
    assert found, f"README has no `### {command}` section"
    text = found.group(1)

    def other_command(match: re.Match[str]) -> str:
        return "" if match.group(1) in COMMANDS and match.group(1) != command else match.group(0)

    return re.sub(r"ctxopt ([a-z][a-z-]*)[^`\n]*", other_command, text)


def shared_paragraph() -> str:
    found = re.search(r"^Every command takes (.*?)\n\n", readme(), re.M | re.S)
    assert found, "README lost the paragraph on the options every command takes"
    return found.group(0)


def test_the_app_has_commands() -> None:
    assert {"index", "query", "pack", "stats"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_has_examples_of_real_use(command: str) -> None:
    text = help_text(command)
    assert "Examples:" in text, f"`ctxopt {command} --help` has no examples"
    examples = text.split("Examples:", 1)[1]
    lines = [line.strip() for line in examples.splitlines() if line.strip()]
    assert len(lines) >= 2
    assert all(line.startswith(f"ctxopt {command}") for line in lines), lines


def test_help_says_where_examples_pipe_to() -> None:
    text = "\n".join(help_text(command) for command in COMMANDS)
    for consumer in ("| llm", "| claude -p", "| ollama run", "in CI"):
        assert consumer in text


@pytest.mark.parametrize("command", COMMANDS)
def test_shared_options_on_every_command(command: str) -> None:
    text = help_text(command)
    missing = set(SHARED) - help_options(command)
    assert missing == NOT_TAKEN.get(command, frozenset())
    if "--json" not in missing:
        assert "one JSON value on stdout" in text  # what --json does, in every command
    assert "instead of tables" not in text


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_names_every_option_of_the_help(command: str) -> None:
    named = set(OPTION_MENTION.findall(readme_section(command)))
    named |= set(OPTION_MENTION.findall(shared_paragraph()))
    missing = help_options(command) - named
    assert not missing, f"README's `### {command}` section does not name {sorted(missing)}"


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_names_no_option_the_command_lacks(command: str) -> None:
    named = set(OPTION_MENTION.findall(readme_section(command)))
    extra = named - help_options(command)
    assert not extra, f"README's `### {command}` names {sorted(extra)}, not in its --help"
    assert set(SHARED) <= set(OPTION_MENTION.findall(shared_paragraph()))


def test_readme_table_lists_every_command() -> None:
    table = readme().split("## Commands", 1)[1].split("###", 1)[0]
    for command in COMMANDS:
        assert f"| `ctxopt {command}" in table


def test_bare_ctxopt_prints_the_help(cli: CliRunner) -> None:
    done = cli()
    assert done.code == 0
    assert done.err == ""
    assert done.out.startswith("Usage: ctxopt ")
    assert done.out == cli("--help").out


def test_a_usage_error_points_at_the_command_help(cli: CliRunner) -> None:
    done = cli("pack")
    assert done.code == 2
    assert done.err.strip() == "ctxopt: error: Missing argument 'TASK'. (see `ctxopt pack --help`)"


@pytest.mark.parametrize("command", ["pack", "query"])
def test_a_task_that_starts_with_a_dash_is_told_how_to_pass_it(
    cli: CliRunner, command: str
) -> None:
    """A task such as "--exec panics on ..." is not an unknown option: the error says to
    pass it after `--`, and that way it is taken as the task."""
    for task in ["--exec with two placeholders panics", "--threads=1 runs them out of order"]:
        _told_how_to_pass(cli, command, task)


def _told_how_to_pass(cli: CliRunner, command: str, task: str) -> None:
    done = cli(command, task, "--json")
    assert done.code == 2
    error = json.loads(done.out)["error"]
    assert error["kind"] == "usage"
    assert f"after `--`: ctxopt {command} [OPTIONS] -- '{task}'" in error["message"]
    assert "No such option" not in done.err and len(done.err.strip().splitlines()) == 1


def test_an_unknown_option_without_a_space_is_still_an_unknown_option(cli: CliRunner) -> None:
    done = cli("pack", "fix it", "--bugdet", "3")
    assert done.code == 2
    assert "No such option: --bugdet" in done.err and "--budget" in done.err
    assert "after `--`" not in done.err


@pytest.mark.parametrize(
    ("args", "unknown", "ours"),
    [
        (("query", "retry", "--limit", "5"), "--limit", "--top"),
        (("pack", "retry", "--max-tokens", "4000"), "--max-tokens", "--budget"),
        (("pack", "retry", "--limit=4000"), "--limit", "--budget"),
        (("index", "--force"), "--force", "--full"),
        (("stats", "--limit", "3"), "--limit", "--top"),
    ],
)
def test_an_option_other_tools_spell_so_is_answered_with_ours(
    cli: CliRunner, args: tuple[str, ...], unknown: str, ours: str
) -> None:
    """`query --limit` means `--top` and `pack --limit` means `--budget`: the error says which,
    in one line, instead of click's look-alikes by spelling."""
    done = cli(*args)
    assert done.code == 2
    assert f"No such option: {unknown}" in done.err
    assert f"did you mean {ours}?" in done.err and "Possible options" not in done.err
    assert len(done.err.strip().splitlines()) == 1


def test_an_option_no_tool_spells_so_keeps_the_look_alikes(cli: CliRunner) -> None:
    done = cli("query", "retry", "--nope")
    assert done.code == 2
    assert "No such option: --nope" in done.err and "did you mean" not in done.err
