"""Examples shown at the end of each command's `--help`: real use, in pipes and in CI.

A test fails if a registered command has no examples here (see tests/e2e/test_cli_help.py).
"""

from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "index": (
        "ctxopt index                                # this repository, incrementally",
        "ctxopt index ~/src/app --full --embedder minilm",
        "ctxopt index --quiet --exclude 'docs/**'    # in CI, before ctxopt pack",
        "ctxopt index --watch                        # and keep it current until Ctrl-C",
        "ctxopt index https://github.com/pallets/click --ref 8.1.7   # a shallow clone, cached",
    ),
    "query": (
        'ctxopt query "where are sessions stored" --explain',
        "ctxopt query \"add tests for the parser\" --lang py --json | jq -r '.[0].file'",
        'ctxopt query "fix the retry loop" -k 20 --no-tests --glob "src/**"',
    ),
    "pack": (
        'ctxopt pack "fix the login bug" | llm',
        'ctxopt pack "explain the scheduler" --model claude-sonnet-4-5 -f xml | claude -p',
        'ctxopt pack "why does the retry loop spin" --budget 6000 | ollama run qwen2.5-coder',
        'ctxopt pack "review this change" --diff-ref origin/main -o out/prompt.md   # in CI',
        'ctxopt pack "fix the login bug" --copy       # to the clipboard, nothing on stdout',
        'ctxopt pack "how are options parsed" --path git@github.com:pallets/click.git',
    ),
    "stats": (
        "ctxopt stats --depth 2 --top 20             # folders two levels deep, 20 largest files",
        'ctxopt stats -t "fix the login bug" --budget 8000 --model gpt-5 | llm "summarise"',
        "ctxopt stats --tasks-file .github/ctxopt-tasks.yml --markdown --fail-under 80"
        ' >> "$GITHUB_STEP_SUMMARY"   # in CI',
    ),
    "tune": (
        "ctxopt tune                                   # fit the weights to the last 300 commits",
        "ctxopt tune --commits 600 --json > tuned.json",
    ),
    "analyze-doc": (
        "ctxopt analyze-doc contract.pdf --plan --model claude-sonnet-4-5",
        'ctxopt analyze-doc big.pdf --budget 8000 | llm "summarise the risks"',
        'ctxopt analyze-doc notes.md --llm "claude -p" -o report.md',
        'ctxopt analyze-doc - --llm "ollama run qwen2.5" --json < spec.html > run.json   # in CI',
    ),
    "mcp": (
        "ctxopt mcp                                  # this repository, for the agent starting it",
        "ctxopt mcp --path ~/src/app --db ~/.cache/ctxopt/app --quiet",
    ),
}


def epilog(command: str) -> str | None:
    """The examples of command as a help epilog (click keeps `\\b` paragraphs as written)."""
    lines = EXAMPLES.get(command)
    if not lines:
        return None
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)
