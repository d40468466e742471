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


# A line that only closes or points at issues or pull requests ("Closes #12.", "Fixes: <url>",
# "Refs a/b#3, #4"): its words ("closes", the forge's host, the owner and the repository's name)
# rank whatever code shares them (a `close` method, every file under a folder named like the
# repository).  Matched token by token, never by one pattern over a whole line, so that a long
# line of slashes or addresses costs linear time.
_POINTING_WORDS = re.compile(
    r"(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|references|see(?: also)?|related(?: to)?"
    r"|part of|follow[- ]?up(?: to| of)?)\b[ \t]*:?",
    re.IGNORECASE,
)
_SHORT_REFERENCE = re.compile(r"(?:[\w.-]+/[\w.-]+)?#\d+")  # "#12", "owner/repo#12"
_ISSUE_PATH = re.compile(r"/(?:issues|pulls?|merge_requests|discussions)/\d+")
_SEPARATORS = re.compile(r"(?:[ \t,&]|\band\b)+", re.IGNORECASE)
_TOKEN = re.compile(r"\S+")
_ENCLOSING = "([<>)]\"'.,;:"


def _is_issue_address(token: str) -> bool:
    """The web address of an issue, pull or merge request on any forge
    ("https://github.com/owner/repo/issues/12", ".../pull/7", ".../-/merge_requests/3")."""
    bare = token.strip(_ENCLOSING).lower()
    return bare.startswith(("http://", "https://")) and _ISSUE_PATH.search(bare) is not None


def _only_references(line: str) -> bool:
    rest = line.strip()
    words = _POINTING_WORDS.match(rest)
    if words:
        rest = rest[words.end() :]
    tokens = [t.rstrip(".,") for t in _SEPARATORS.split(rest) if t]
    return bool(tokens) and all(
        _SHORT_REFERENCE.fullmatch(t) is not None or _is_issue_address(t) for t in tokens
    )


def without_references(task: str) -> str:
    """The task without the lines that only close or point at issues or pull requests, and
    without the web addresses of issues and pull requests elsewhere in it; the task as given
    when nothing else is left."""
    lines = [line for line in task.splitlines() if not _only_references(line)]
    kept = "\n".join(
        _TOKEN.sub(lambda m: "" if _is_issue_address(m.group()) else m.group(), line)
        for line in lines
    ).strip()
    if kept == task.strip():
        return task
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
