"""The text of a task the ranking reads: without the lines git and GitHub write into commit
messages (merge subjects, trailers), the references to issues and pull requests, and only
the start and end of a pasted log."""

from __future__ import annotations

import re

RANKED_CHARS = 32_000  # a longer task (a pasted log) is ranked by its start and end ...
RANKED_HEAD = 1 / 3  # ... this share from its start, the rest from its end (where the error is)

# Lines a tool writes, not the author: a merge's subject ("Merge pull request #9925 from
# a/b", "Merge branch 'main' into x"), trailers naming people, a cherry-pick's note. Their
# words ("merge", "pull", "request", a co-author's e-mail) rank whatever code shares them.
_GIT_BOILERPLATE = re.compile(
    r"^[ \t]*(?:merge pull request #?\d+(?: from \S+)?"
    r"|merge (?:remote-tracking )?branch(?:es)? '[^'\n]+'(?:,? (?:and )?'[^'\n]+')*"
    r"(?: of \S+)?(?: into \S+)?"
    r"|merge tag '[^'\n]+'(?: of \S+)?(?: into \S+)?"
    r"|(?:co-authored|signed-off|reviewed|acked|tested|reported|suggested|helped)-by:[^\n]*"
    r"|change-id:[^\n]*"
    r"|\(cherry picked from commit [0-9a-f]{7,40}\))[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


# A reference to an issue or pull request: "#12", "owner/repo#12", or its web address on any
# forge ("https://github.com/owner/repo/issues/12", ".../pull/7", ".../-/merge_requests/3").
_ISSUE_URL = r"https?://\S+?/(?:issues|pulls?|merge_requests|discussions)/\d+[^\s)>\]]*"
_REFERENCE = rf"(?:{_ISSUE_URL}|(?:[\w.-]+/[\w.-]+)?#\d+)"
# A line that only closes or points at issues ("Closes #12.", "Fixes: <url>", "Refs a/b#3"):
# its words ("closes", the forge's host, the owner and the repository's name) rank whatever
# code shares them (a `close` method, every file of a repository named in its own paths).
_REFERENCE_LINE = re.compile(
    r"^[ \t]*(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|references|see(?: also)?"
    r"|related(?: to)?|part of|follow[- ]?up(?: to| of)?)\b[ \t]*:?[ \t]*)?"
    rf"{_REFERENCE}(?:[ \t]*(?:,|and|&)?[ \t]*{_REFERENCE})*[ \t]*[.,]?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_ISSUE_ADDRESS = re.compile(_ISSUE_URL, re.IGNORECASE)


def without_references(task: str) -> str:
    """The task without the lines that only close or point at issues or pull requests, and
    without the web addresses of issues and pull requests elsewhere in it; the task as given
    when nothing else is left."""
    if not (_REFERENCE_LINE.search(task) or _ISSUE_ADDRESS.search(task)):
        return task
    kept = _ISSUE_ADDRESS.sub("", _REFERENCE_LINE.sub("", task)).strip()
    return kept if kept else task


def without_git_boilerplate(task: str) -> str:
    """The task without lines git or GitHub wrote into a commit message; the task as given
    when nothing else is left (a task that is only `Merge branch 'fix-login'`)."""
    if not _GIT_BOILERPLATE.search(task):
        return task
    kept = _GIT_BOILERPLATE.sub("", task).strip()
    return kept if kept else task


def ranked_text(task: str) -> str:
    """The part of a task the ranking reads: all of it but git's boilerplate, and only its start
    and end when it is longer than RANKED_CHARS (a 5 MB log would cost seconds and gigabytes
    and rank no better)."""
    if len(task) > RANKED_CHARS:
        head = int(RANKED_CHARS * RANKED_HEAD)
        task = f"{task[:head]}\n{task[-(RANKED_CHARS - head) :]}"
    return without_references(without_git_boilerplate(task))
