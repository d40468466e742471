"""The ranking reads a long task by its start and end (a pasted log of megabytes), and not the
lines git and GitHub write into commit messages, nor references to issues."""

from __future__ import annotations

import pytest

from ctxopt.config.settings import Settings, load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.search import QueryOptions, rank
from ctxopt.retrieve.task_text import (
    RANKED_CHARS,
    ranked_text,
    without_git_boilerplate,
    without_references,
)
from helpers import HashEmbedder, commit_all, init_repo, write_files


def test_a_task_within_the_limit_is_read_whole() -> None:
    task = "retry does not respect the Retry-After header\n" * 10
    assert ranked_text(task) == task


def test_a_long_task_is_read_by_its_start_and_end() -> None:
    steps = [f"step {i} ok" for i in range(100_000)]
    task = "\n".join(["$ make test", *steps, "TypeError in save_inventory"])
    read = ranked_text(task)
    assert len(read) <= RANKED_CHARS + 1
    assert read.startswith("$ make test") and read.endswith("TypeError in save_inventory")
    assert "step 50000 ok" not in read


def test_git_s_merge_subjects_and_trailers_are_not_read() -> None:
    task = (
        "Allow configuring future metadata for individual collections\n\n"
        "Merge pull request #9925 from someone/future-collections\n\n"
        "Co-authored-by: A Person <a@example.com>\nSigned-off-by: B <b@example.com>\n"
        "(cherry picked from commit 0123abcd)"
    )
    assert ranked_text(task) == "Allow configuring future metadata for individual collections"
    assert without_git_boilerplate("Fix it\n\nMerge pull request 9925") == "Fix it"
    assert without_git_boilerplate("Merge branches 'a' and 'b' of x/y\nreal text") == "real text"


def test_the_author_s_own_words_about_merging_are_read() -> None:
    for task in (
        "Merge branch names with slashes fail to resolve",
        "we should merge pull request 5 before the release",
        "Merge branch 'fix-login'",  # nothing else left: the task as given
    ):
        assert ranked_text(task) == task


def test_lines_that_only_close_or_point_at_issues_are_not_read() -> None:
    task = (
        "Land the progress bar on its final position\n\n"
        "Closes #3571.\nFixes: https://github.com/pallets/click/issues/3570\n"
        "Refs pallets/click#12, #13 and #14\nFollow-up to #1956."
    )
    assert ranked_text(task) == "Land the progress bar on its final position"
    inline = "Quote the path as https://gitlab.com/a/b/-/merge_requests/7 does"
    assert without_references(inline) == "Quote the path as  does"


def test_the_author_s_words_around_references_are_read() -> None:
    for task in (
        "Fixes #123 where close() leaks the handle",  # more than a reference on the line
        "Closes #12",  # nothing else left: the task as given
        "See https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Retry-After",
    ):
        assert ranked_text(task) == task


def test_long_lines_of_slashes_and_addresses_are_read_as_given() -> None:
    # shapes that made one pattern over a whole line backtrack for over a minute
    for task in (
        "See https://" + "a/" * 15_000,
        "Refs " + "a/b#1 " * 5_000 + "!",
        "http://x/" * 3_500,
    ):
        assert len(task) < RANKED_CHARS and ranked_text(task) == task


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    repo = init_repo(tmp_path_factory.mktemp("merged") / "repo")
    write_files(
        repo,
        {
            "script/backport-pr": "#!/bin/sh\n# merge a pull request: fetch the pull request,"
            " merge it, push the merge\ngit fetch origin pull/$1/head\ngit merge FETCH_HEAD\n",
            "lib/closing.rb": "class Socket\n  def close\n    @io.close # closes the io\n"
            "  end\nend\n",
            "lib/publisher.rb": "class Publisher\n  def publish?(thing)\n"
            "    can_be_published?(thing) && !hidden_in_the_future?(thing)\n  end\n\n"
            "  def hidden_in_the_future?(thing)\n    thing.date > Time.now && !future\n"
            "  end\nend\n",
        },
    )
    commit_all(repo)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


def test_a_merge_subject_does_not_rank_the_merge_script(merged: Settings) -> None:
    task = "Publish things hidden in the future\n\nMerge pull request 9925"
    ranked = rank(merged, task, QueryOptions(), reader=IndexReader(merged.db_path)).ranked
    assert ranked[0].chunk.path == "lib/publisher.rb"
    assert all(
        hit.features["lexical"] == 0.0 for hit in ranked if hit.chunk.path.startswith("script")
    )


def test_a_closing_reference_does_not_rank_close_methods(merged: Settings) -> None:
    task = "Publish things hidden in the future\n\nCloses #3571.\nCloses #3572"
    ranked = rank(merged, task, QueryOptions(), reader=IndexReader(merged.db_path)).ranked
    assert ranked[0].chunk.path == "lib/publisher.rb"
    assert all(hit.features["lexical"] == 0.0 for hit in ranked if "closing" in hit.chunk.path)
