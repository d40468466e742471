"""The offline digest within its budget: the ranked sentences that fit, rendered.

The digest is the longest prefix of the ranking that fits (binary search over exact
counts of the rendering), then as much of the next sentence as the room left holds
(whole words, at least MIN_CUT_WORDS, marked as cut).  A prefix of one ranking, then
the start of the next sentence: a larger budget holds everything a smaller one held, and
a long sentence early in the ranking no longer leaves a small budget with no sentence at
all.  When neither the first sentence nor MIN_CUT_WORDS of it fit, BudgetError names the
least budget that holds one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ctxopt import tokens
from ctxopt.analyze.layout import Layout
from ctxopt.analyze.sentences import Sentence
from ctxopt.errors import BudgetError

MIN_CUT_WORDS = 8  # a sentence cut to fit keeps at least this many words
CUT_MARK = " […]"


@dataclass(frozen=True)
class Cut:
    """A sentence cut to fit: its id and the words kept (CUT_MARK is added when rendered)."""

    sentence: int
    text: str


@dataclass(frozen=True)
class Fit:
    chosen: tuple[int, ...]  # whole sentences, in document order
    cut: Cut | None  # the start of the sentence after them, cut to fit the room left
    text: str
    tokens: int


@dataclass(frozen=True)
class Page:
    """What every rendering of one digest shares."""

    sentences: Sequence[Sentence]
    layout: Layout
    key: frozenset[int]  # the sentences of the last memory: the key points
    title: str

    def render(self, chosen: Sequence[int], cut: Cut | None = None) -> str:
        return render_digest(self, sorted(chosen), cut)

    def size(self, chosen: Sequence[int], cut: Cut | None = None) -> int:
        return tokens.count(self.render(chosen, cut))


def fit(page: Page, ranked: Sequence[int], budget: int) -> Fit:
    """The longest prefix of the ranking that fits budget tokens, and the next sentence's
    start in the room left (see the module's note)."""
    taken = _prefix(page, ranked, budget)
    cut = _cut(page, taken, ranked[len(taken)], budget) if len(taken) < len(ranked) else None
    if not taken and cut is None and ranked:
        needed = _least(page, ranked[0])
        raise BudgetError(
            f"--budget {budget} cannot hold the digest's headers and its first sentence, "
            f"whole or cut to {MIN_CUT_WORDS} words ({needed:,} tokens); use --budget {needed} "
            "or more"
        )
    text = page.render(taken, cut)
    return Fit(tuple(sorted(taken)), cut, text, tokens.count(text))


def _prefix(page: Page, ranked: Sequence[int], budget: int) -> list[int]:
    """The longest prefix of ranked whose rendering fits (binary search)."""
    low, high = 0, len(ranked)
    while low < high:
        middle = (low + high + 1) // 2
        if page.size(ranked[:middle]) <= budget:
            low = middle
        else:
            high = middle - 1
    return list(ranked[:low])


def _cut(page: Page, taken: list[int], sentence: int, budget: int) -> Cut | None:
    """The sentence's longest start (whole words, at least MIN_CUT_WORDS) that fits beside
    taken; None when not even that fits."""
    words = len(page.sentences[sentence].text.split())
    low, high = MIN_CUT_WORDS - 1, words - 1
    while low < high:
        middle = (low + high + 1) // 2
        if page.size(taken, _start(page, sentence, middle)) <= budget:
            low = middle
        else:
            high = middle - 1
    return _start(page, sentence, low) if low >= MIN_CUT_WORDS else None


def _least(page: Page, first: int) -> int:
    """The least budget whose digest holds something of the ranking's first sentence: the
    sentence whole, or cut to MIN_CUT_WORDS words when it has more (a cut is marked and noted
    in the header, so the whole of a short sentence can cost less)."""
    whole = page.size((first,))
    if len(page.sentences[first].text.split()) <= MIN_CUT_WORDS:
        return whole
    return min(whole, page.size((), _start(page, first, MIN_CUT_WORDS)))


def _start(page: Page, sentence: int, words: int) -> Cut:
    return Cut(sentence, " ".join(page.sentences[sentence].text.split()[:words]))


def render_digest(page: Page, chosen: Sequence[int], cut: Cut | None = None) -> str:
    """The digest: the key points, then each window's own sentences, in document order."""
    layout, sentences = page.layout, page.sentences
    shown = {i: sentences[i].text for i in chosen}
    if cut is not None:
        shown[cut.sentence] = cut.text + CUT_MARK
    order = sorted(shown, key=lambda i: sentences[i].start)
    lines = [
        f"# Digest of {page.title}",
        "",
        f"{layout.chars:,} characters, {layout.tokens:,} tokens, read in "
        f"{len(layout.windows)} window(s); sentences quoted from the document in order"
        + (f", the one ending in {CUT_MARK.strip()} cut to fit." if cut else "."),
    ]
    points = [i for i in order if i in page.key]
    if points:
        lines += ["", "## Key points", ""] + [f"- {shown[i]}" for i in points]
    for window in layout.windows:
        own = [
            i
            for i in order
            if i not in page.key and window.new_start <= sentences[i].start < window.end
        ]
        if own:
            lines += [
                "",
                f"## Part {window.index} (characters {window.new_start:,}-{window.end:,})",
                "",
            ]
            lines += [f"- {shown[i]}" for i in own]
    return "\n".join(lines) + "\n"
