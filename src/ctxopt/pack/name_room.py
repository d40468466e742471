"""The repository's name as the selection reckons with it (pure).

A prompt's header names the repository by its folder. Were the selection to pay for that name
itself, two checkouts of one commit, in folders named `chi` and `chi-review-2`, would pack other
chunks at the same budget. It pays for a stand-in of NAME_ROOM tokens instead, for every name
that costs no more than that; the prompt shows the real name, which then fits in the room the
stand-in took.
"""

from __future__ import annotations

from dataclasses import replace

from ctxopt.pack.prompt_tokens import count as count_tokens
from ctxopt.pack.render import RenderInput, render

NAME_ROOM = 12  # tokens a name may cost in the header: a folder name of about 40 characters
# a token a word, and one for the closing backtick it no longer shares: NAME_ROOM in all
STAND_IN = " ".join(["x"] * (NAME_ROOM - 1))


def with_name_room(base: RenderInput, fmt: str) -> RenderInput:
    """`base` naming the stand-in, when its own name costs no more in this format's header;
    else `base` as it is (a longer name is reckoned with itself)."""
    stand_in = replace(base, repo_name=STAND_IN)
    if count_tokens(render(base, fmt)) <= count_tokens(render(stand_in, fmt)):
        return stand_in
    return base
