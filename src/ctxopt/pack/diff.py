"""The diff shown before the code in a pack for a change."""

from __future__ import annotations

from ctxopt import tokens
from ctxopt.discover.changes import Change

MAX_DIFF_TOKENS = 4000


def diff_preface(change: Change) -> str:
    """The diff, cut to MAX_DIFF_TOKENS, fenced, with the git arguments that chose it."""
    text = tokens.truncate(change.text, MAX_DIFF_TOKENS)
    label = " ".join(change.request.selection())
    return f"The change under review (git {label}):\n```diff\n{text}\n```"
