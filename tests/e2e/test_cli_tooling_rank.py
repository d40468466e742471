"""A tool's configuration (`.eslintrc.js`, `webpack.config.js`, CI workflows) ranks below the
code it builds unless the task is about the tooling: a commander.js pack at 8k gave a place to
`.prettierrc.js` for a task about option parsing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clitools import CliRunner
from helpers import commit_all, init_repo, write_files

RETRY = """\
export function retryDelay(attempt, header) {
  const delay = header ? Number(header) * 1000 : 2 ** attempt * 100;
  return Math.min(delay, 30000);
}
"""
ESLINT = """\
module.exports = {
  rules: { 'retry-delay': 'error', 'retry-header': 'warn', 'max-delay': 'off' },
  overrides: [{ files: ['retry-delay.js'], rules: { 'retry-delay-header': 'error' } }],
};
"""
WEBPACK = """\
module.exports = {
  entry: './src/retry.js',
  output: { filename: 'retry-delay.js' },
  resolve: { alias: { retryDelay: './src/retry.js', retryHeader: './src/header.js' } },
};
"""


def _hits(cli: CliRunner, repo: Path, task: str) -> list[dict[str, Any]]:
    return cli("query", task, "--path", str(repo), "--json", "--explain").hits()


def test_tool_configuration_ranks_below_code_unless_the_task_names_the_tool(
    tmp_path: Path, cli: CliRunner
) -> None:
    repo = init_repo(tmp_path / "client")
    files = {"src/retry.js": RETRY, ".eslintrc.js": ESLINT, "webpack.config.js": WEBPACK}
    write_files(repo, files)
    commit_all(repo)
    assert cli("index", str(repo), "--quiet").code == 0
    bug = _hits(cli, repo, "the retry delay ignores the Retry-After header")
    assert bug[0]["file"] == "src/retry.js"
    tools = {h["file"]: h for h in bug if h["file"] != "src/retry.js"}
    assert set(tools) == {".eslintrc.js", "webpack.config.js"}
    assert all(h["factors"]["secondary_penalty"] < 0 for h in tools.values())
    lint = _hits(cli, repo, "eslint fails on the retry delay header rule")
    by_file = {h["file"]: h for h in lint}
    assert "secondary_penalty" not in by_file[".eslintrc.js"]["factors"]
    assert lint[0]["file"] == ".eslintrc.js"
