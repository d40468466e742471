"""The text of a task the ranking reads: without the lines git and GitHub write into commit
messages (merge subjects, trailers), and only the start and end of a pasted log."""

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
    return without_git_boilerplate(task)
