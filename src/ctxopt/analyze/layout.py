"""A document's tokens and boundaries, and its window plan with exact counts and the estimate."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ctxopt import tokens
from ctxopt.analyze.plan import MIN_WINDOW_TOKENS, Cut, Limits, Span, plan_spans
from ctxopt.errors import UsageError

LATIN_CHARS_PER_TOKEN = 3.5
NON_LATIN_CHARS_PER_TOKEN = 3.0
_SECTION = re.compile(r"^(?:#{1,6}[ \t]|\f)", re.MULTILINE)
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE = re.compile(r"[.!?][\"'”’)\]]*(?=\s)|[。！？][\"'”’」』)\]]*")  # CJK: no space needed
_NON_LATIN = re.compile(r"[^\x00-\u024f\u1e00-\u1eff\s]")
_SPACE = re.compile(r"\s")


@dataclass(frozen=True)
class Window:
    """One window: characters [start, end), of which [start, new_start) repeat the previous one."""

    index: int  # 1-based
    start: int
    new_start: int
    end: int
    tokens: int  # exact cl100k count of the window's text
    overlap_tokens: int  # the document's tokens inside the overlap
    estimate: int  # the fast estimate of the window's text

    @property
    def new_tokens(self) -> int:
        return self.tokens - self.overlap_tokens


@dataclass(frozen=True)
class Layout:
    chars: int
    tokens: int
    estimate: int
    chars_per_token: float
    windows: tuple[Window, ...]


def chars_per_token(text: str) -> float:
    """3.5 characters a token, 3.0 when most non-space characters are not Latin."""
    if text.isascii():
        return LATIN_CHARS_PER_TOKEN
    visible = len(text) - len(_SPACE.findall(text))
    non_latin = len(text) - len(_NON_LATIN.sub("", text))
    mostly_other = visible > 0 and non_latin / visible > 0.5
    return NON_LATIN_CHARS_PER_TOKEN if mostly_other else LATIN_CHARS_PER_TOKEN


def estimate_tokens(text: str, per_token: float | None = None) -> int:
    """The design note's fast estimate: characters / 3.5 (or / 3.0), rounded up."""
    rate = per_token or chars_per_token(text)
    return int(np.ceil(len(text) / rate)) if text else 0


def token_starts(text: str) -> np.ndarray:
    """Character offset of each cl100k token's start, then len(text): T+1 ascending values."""
    ids = np.asarray(tokens.encoding().encode(text, disallowed_special=()), dtype=np.int64)
    lengths = _byte_lengths()[ids] if len(ids) else np.zeros(0, dtype=np.int64)
    byte_starts = np.concatenate(([0], np.cumsum(lengths)))
    if text.isascii():
        return byte_starts
    data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    char_of_byte = np.cumsum((data & 0xC0) != 0x80) - 1
    char_of_byte = np.concatenate((char_of_byte, [len(text)]))
    starts = char_of_byte[np.minimum(byte_starts, len(data))]
    starts[-1] = len(text)
    return starts


@lru_cache(maxsize=1)
def _byte_lengths() -> np.ndarray:
    """Bytes of each token id of the encoding (0 for special tokens and gaps)."""
    enc = tokens.encoding()
    table = np.zeros(enc.n_vocab, dtype=np.int64)
    ranks: dict[bytes, int] = getattr(enc, "_mergeable_ranks", {})
    if ranks:
        table[np.fromiter(ranks.values(), dtype=np.int64, count=len(ranks))] = np.fromiter(
            (len(b) for b in ranks), dtype=np.int64, count=len(ranks)
        )
        return table
    for token in range(enc.n_vocab):  # no table exposed: ask token by token
        try:
            table[token] = len(enc.decode_single_token_bytes(token))
        except KeyError:
            table[token] = 0
    return table


def cut_qualities(text: str, starts: np.ndarray) -> np.ndarray:
    """Cut quality before each token: section > paragraph > sentence > any token."""
    cuts = np.zeros(len(starts), dtype=np.int8)
    marks = (
        (Cut.SENTENCE, [m.end() for m in _SENTENCE.finditer(text)]),
        (Cut.PARAGRAPH, [m.end() for m in _PARAGRAPH.finditer(text)]),
        (Cut.SECTION, [m.start() for m in _SECTION.finditer(text)]),
    )
    for quality, positions in marks:
        if positions:
            where = np.searchsorted(starts, np.asarray(positions, dtype=np.int64))
            where = where[where < len(starts)]
            cuts[where] = np.maximum(cuts[where], int(quality))
    return cuts


def lay_out(text: str, limits: Limits) -> Layout:
    """Plan windows over text; every window's exact count stays within the limit."""
    starts = token_starts(text)
    total = len(starts) - 1
    cuts = cut_qualities(text, starts)
    rate = chars_per_token(text)
    width = limits.window_tokens
    for _ in range(5):
        spans = plan_spans(total, cuts, Limits(width, limits.overlap, limits.single_pass_tokens))
        windows = _windows(text, starts, cuts, spans, rate)
        excess = max(w.tokens for w in windows) - limits.window_tokens
        if excess <= 0:
            return Layout(len(text), total, estimate_tokens(text, rate), rate, tuple(windows))
        # a cut inside a word can merge differently; plan a little tighter
        width = max(MIN_WINDOW_TOKENS, width - excess - 1)
    raise UsageError(
        f"--window-tokens {limits.window_tokens} is too small to cut this document into "
        f"windows within it; use {2 * limits.window_tokens} or more"
    )


def _windows(
    text: str, starts: np.ndarray, cuts: np.ndarray, spans: list[Span], rate: float
) -> list[Window]:
    """Windows with exact counts of their text.

    A window cut at a section, paragraph or sentence boundary starts and ends on a
    piece of the tokenizer's pre-split, so its count is the number of the document's
    tokens inside it; a window with an edge inside a run of text (no boundary was in
    reach) is counted again on its own text."""
    total = len(starts) - 1
    bounds = [tuple(int(starts[i]) for i in (s.start, s.new_start, s.end)) for s in spans]
    bodies = [text[a:b] for a, _, b in bounds]
    loose = [
        index
        for index, span in enumerate(spans)
        if (span.start > 0 and cuts[span.start] == Cut.TOKEN)
        or (span.end < total and cuts[span.end] == Cut.TOKEN)
    ]
    counts = [span.tokens for span in spans]
    for index, count in zip(loose, tokens.count_many([bodies[i] for i in loose]), strict=True):
        counts[index] = count
    return [
        Window(
            index=index,
            start=a,
            new_start=n,
            end=b,
            tokens=count,
            overlap_tokens=min(span.overlap_tokens, count),
            estimate=estimate_tokens(body, rate),
        )
        for index, ((a, n, b), span, body, count) in enumerate(
            zip(bounds, spans, bodies, counts, strict=True), start=1
        )
    ]
