"""History as evidence: past commit messages like the task point at the files they modified."""

from __future__ import annotations

from collections.abc import Collection

from ctxopt.retrieve.history_evidence import (
    SIMILAR_COMMITS,
    MessageIndex,
    history_evidence,
    message_index,
    past_message,
)
from ctxopt.types import PastCommit


def _index(*commits: tuple[str, tuple[str, ...]]) -> MessageIndex:
    return message_index(
        tuple(PastCommit(f"{i:040x}", message, files) for i, (message, files) in enumerate(commits))
    )


def _indexed(index: MessageIndex) -> Collection[str]:
    return {path for message in index.messages for path in message.files}


def test_the_files_of_the_messages_like_the_task_get_the_evidence() -> None:
    index = _index(
        ("Session cookie is not refreshed after login", ("src/sessions.py",)),
        ("Fix the session cookie domain for subdomains", ("src/sessions.py", "src/app.py")),
        ("Render templates with autoescape on", ("src/templating.py",)),
        ("Add a command line runner", ("src/cli.py",)),
    )
    task = "the session cookie is not refreshed on each request"
    found = history_evidence(task, index, _indexed(index))
    assert max(found, key=found.__getitem__) == "src/sessions.py"
    assert 0 < found["src/app.py"] < found["src/sessions.py"] / 2  # one commit, shared by two
    assert "src/templating.py" not in found and "src/cli.py" not in found


def test_the_evidence_is_as_strong_as_the_best_message_says_the_task() -> None:
    index = _index(
        ("Retry the request after a timeout", ("http/retry.py",)),
        ("Log the request body", ("http/logging.py",)),
    )
    said = history_evidence("retry the request after a timeout", index, _indexed(index))
    assert said["http/retry.py"] == 1.0  # a past message says all the task says
    common = history_evidence("the request hangs forever behind a proxy", index, _indexed(index))
    assert 0 < max(common.values()) < 0.5  # only a common word in common: little evidence


def test_a_sweeping_commit_says_less_about_each_of_its_files() -> None:
    index = _index(
        ("Retry the request on a timeout", ("http/retry.py",)),
        ("Retry the request on a timeout", tuple(f"pkg/module_{i}.py" for i in range(8))),
    )
    found = history_evidence("retry on timeout", index, _indexed(index))
    assert found["http/retry.py"] == 1.0
    assert found["pkg/module_0.py"] < 0.2


def test_only_indexed_files_are_answers_and_others_take_no_place() -> None:
    renamed = [(f"parser fails on nested quotes, take {i}", ("old/parser.py",)) for i in range(20)]
    index = _index(*renamed, ("parser fails on nested quotes", ("src/parser.py", "old/parser.py")))
    found = history_evidence("parser fails on nested quotes", index, {"src/parser.py"})
    assert found == {"src/parser.py": 1.0}  # found past twenty commits of a file gone since


def test_only_the_messages_most_like_the_task_count() -> None:
    weak = [(f"update the parser docs {i}", (f"docs/page_{i}.md",)) for i in range(SIMILAR_COMMITS)]
    index = _index(*weak, ("parser fails on nested quotes", ("src/parser.py",)))
    found = history_evidence("parser fails on nested quotes", index, _indexed(index))
    assert found["src/parser.py"] == 1.0
    assert len(found) == SIMILAR_COMMITS  # the strongest match and SIMILAR_COMMITS - 1 others


def test_no_shared_word_no_evidence() -> None:
    index = _index(("Render templates with autoescape on", ("src/templating.py",)))
    assert history_evidence("parser fails on nested quotes", index, _indexed(index)) == {}
    assert history_evidence("", index, _indexed(index)) == {}
    assert history_evidence("anything at all", _index(), ()) == {}
    assert history_evidence("render templates", index, ()) == {}  # no file of it indexed


def test_a_commit_that_modified_nothing_or_says_nothing_is_left_out() -> None:
    assert past_message(PastCommit("a" * 40, "Fix the parser", ())) is None
    assert past_message(PastCommit("b" * 40, "!!! ...", ("src/parser.py",))) is None
    kept = past_message(PastCommit("c" * 40, "Fix the quotedField parser", ("src/parser.py",)))
    assert kept is not None and {"quotedfield", "quoted", "field", "parser"} <= set(kept.terms)
