"""Changelogs, docs, tests and tool configuration rank below code unless the task is about them."""

from __future__ import annotations

import pytest

from ctxopt.chunking import chunk_file
from ctxopt.languages import detect_language
from ctxopt.retrieve.candidates import Candidate
from ctxopt.retrieve.entities import extract_entities
from ctxopt.retrieve.intent import detect_intent
from ctxopt.retrieve.scoring import DEFAULT_WEIGHTS, ScoringContext, score_candidates
from ctxopt.retrieve.search import wanted_secondary
from ctxopt.retrieve.secondary import SECONDARY_FACTORS, TOOLING_TASK, Secondary, secondary_class
from ctxopt.types import Chunk

SAMPLES = {
    "CHANGES.rst": "Version 8.1\n-----------\n\n- session cookie refresh fixed\n",
    "CHANGELOG.md": "# 2.0\n\n- session cookie refresh\n",
    "docs/api.md": "# Sessions\n\nThe session cookie is refreshed on each request.\n",
    "docs/manual/v1.5/manual.yml": "headline: Manual\nbody: session cookie refresh\n",
    "docs/examples/session.py": "def refresh_session(cookie):\n    return cookie\n",
    "src/sessions.py": "def refresh_session(cookie):\n    return cookie\n",
    "tests/test_sessions.py": "def test_refresh_session():\n    assert True\n",
    ".prettierrc.js": "module.exports = { singleQuote: true, sessionCookie: false };\n",
    "vite.config.ts": "export default { build: { sessionCookie: true } };\n",
    "karma.conf.js": "module.exports = function (config) { config.set({}); };\n",
    ".github/workflows/ci.yml": "name: ci\non: push\njobs:\n  test:\n    runs-on: x\n",
    "docs/.vitepress/config.ts": "export default { title: 'sessions' };\n",
    "src/config.ts": "export const sessionCookie = { refresh: true };\n",
    "Gruntfile.js": "module.exports = function (grunt) { grunt.initConfig({}); };\n",
}
EXPECTED = {
    "CHANGES.rst": Secondary.HISTORY,
    "CHANGELOG.md": Secondary.HISTORY,
    "docs/api.md": Secondary.DOCS,
    "docs/manual/v1.5/manual.yml": Secondary.DOCS,
    "docs/examples/session.py": None,  # code under docs/ is still code
    "src/sessions.py": None,
    "tests/test_sessions.py": Secondary.TEST,
    ".prettierrc.js": Secondary.TOOLING,
    "vite.config.ts": Secondary.TOOLING,
    "karma.conf.js": Secondary.TOOLING,
    ".github/workflows/ci.yml": Secondary.TOOLING,
    "docs/.vitepress/config.ts": Secondary.TOOLING,  # code under docs/, but in a tool's folder
    "src/config.ts": None,  # the product's configuration is code
    "Gruntfile.js": Secondary.TOOLING,
}


def first_chunk(path: str) -> Chunk:
    return chunk_file(path, SAMPLES[path], detect_language(path)).chunks[0]


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_secondary_class_of_each_kind_of_file(path: str) -> None:
    assert secondary_class(first_chunk(path)) is EXPECTED[path]


def test_history_ranks_below_docs_below_code() -> None:
    assert SECONDARY_FACTORS[Secondary.HISTORY] < SECONDARY_FACTORS[Secondary.DOCS] < 1.0
    task = "session cookie is not refreshed"
    entities = extract_entities(task)
    ctx = ScoringContext(entities, detect_intent(task, entities), {}, 0, frozenset())
    paths = ["CHANGES.rst", "docs/api.md", "src/sessions.py"]
    pool = [Candidate(first_chunk(p), lexical_rank=1, lexical_score=5.0) for p in paths]
    ranked = [h.chunk.path for h in score_candidates(pool, ctx, DEFAULT_WEIGHTS)]
    assert ranked == ["src/sessions.py", "docs/api.md", "CHANGES.rst"]
    about_docs = extract_entities("fix the docs")
    wanted = ScoringContext(
        **{**ctx.__dict__, "wanted": wanted_secondary("fix the docs", about_docs, ctx.intent)}
    )
    scores = {h.chunk.path: h.score for h in score_candidates(pool, wanted, DEFAULT_WEIGHTS)}
    assert scores["CHANGES.rst"] == scores["docs/api.md"]  # a task about docs: no penalty


def test_tool_configuration_ranks_below_code_unless_the_task_names_tooling() -> None:
    task = "session cookie is not refreshed"
    entities = extract_entities(task)
    tests_and_docs = frozenset({Secondary.TEST, Secondary.DOCS, Secondary.HISTORY})
    ctx = ScoringContext(
        entities, detect_intent(task, entities), {}, 0, frozenset(), tests_and_docs
    )
    paths = [".prettierrc.js", "src/config.ts"]
    pool = [Candidate(first_chunk(p), lexical_rank=1, lexical_score=5.0) for p in paths]
    # a task about tests or docs still has the tool's file rank below code
    ranked = score_candidates(pool, ctx, DEFAULT_WEIGHTS)
    assert [h.chunk.path for h in ranked] == ["src/config.ts", ".prettierrc.js"]
    assert ranked[1].factors["secondary_penalty"] < 0
    wanted = ScoringContext(**{**ctx.__dict__, "wanted": tests_and_docs | {Secondary.TOOLING}})
    assert all(
        "secondary_penalty" not in h.factors
        for h in score_candidates(pool, wanted, DEFAULT_WEIGHTS)
    )


@pytest.mark.parametrize(
    "task",
    [
        "Fix ruff E501 line-too-long in PowerShell template",
        "chore(golangci-lint): upgrade to v2",
        "Resolve precedence clippy lint",
        "fix(rubocop): correct offenses",
        "Disable commonly ignored Pyright rules",
        "mypy: silence the override error in the session adapter",
        "run clang-format on src/",
        "typecheck the examples in CI",
    ],
)
def test_a_task_about_a_linter_or_type_checker_is_about_tooling(task: str) -> None:
    assert TOOLING_TASK.search(task) is not None


@pytest.mark.parametrize(
    "task",
    [
        "session cookie is not refreshed when SESSION_REFRESH_EACH_REQUEST is false",
        "Validate style() color arguments, fix explicit black color argument",
        "retry does not respect the Retry-After header for 413 responses",
    ],
)
def test_a_bug_report_about_code_is_not_about_tooling(task: str) -> None:
    assert TOOLING_TASK.search(task) is None


@pytest.mark.parametrize(
    ("task", "wanted"),
    [
        ("test: add shell-completion case for hidden BoolWithInverseFlag", {Secondary.TEST}),
        ("add tests for the retry delay", {Secondary.TEST}),
        ("session cookie is not refreshed", set()),
        (
            "document the retry option in the docs",
            {Secondary.TEST, Secondary.DOCS, Secondary.HISTORY},
        ),
        ("fix the eslint configuration", {Secondary.TOOLING}),
    ],
)
def test_a_task_about_tests_keeps_tests_not_docs_and_history_at_their_score(
    task: str, wanted: set[Secondary]
) -> None:
    entities = extract_entities(task)
    assert wanted_secondary(task, entities, detect_intent(task, entities)) == wanted


def test_docs_and_changelogs_rank_below_code_for_a_task_about_tests() -> None:
    task = "test: add coverage for the session cookie refresh"
    entities = extract_entities(task)
    intent = detect_intent(task, entities)
    wanted = wanted_secondary(task, entities, intent)
    ctx = ScoringContext(entities, intent, {}, 0, frozenset(), wanted)
    paths = ["CHANGES.rst", "docs/api.md", "src/sessions.py", "tests/test_sessions.py"]
    pool = [Candidate(first_chunk(p), lexical_rank=1, lexical_score=5.0) for p in paths]
    penalised = {
        h.chunk.path
        for h in score_candidates(pool, ctx, DEFAULT_WEIGHTS)
        if "secondary_penalty" in h.factors
    }
    assert penalised == {"CHANGES.rst", "docs/api.md"}
