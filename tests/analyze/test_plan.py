"""Window maths: windows cover the document in order, overlaps as configured, limits held."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt import tokens
from ctxopt.analyze import layout
from ctxopt.analyze.layout import cut_qualities, estimate_tokens, lay_out, token_starts
from ctxopt.analyze.plan import (
    END_SLACK,
    MIN_WINDOW_TOKENS,
    OVERLAP_SLACK,
    Cut,
    Limits,
    Span,
    plan_spans,
)
from ctxopt.errors import UsageError


@st.composite
def documents(draw: st.DrawFn) -> tuple[int, np.ndarray, Limits]:
    total = draw(st.integers(min_value=0, max_value=5000))
    density = draw(st.sampled_from([0.0, 0.01, 0.2, 1.0]))  # share of tokens after a boundary
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    random = np.random.default_rng(seed)
    cuts = np.where(random.random(total + 1) < density, random.integers(1, 4, total + 1), 0)
    cuts = cuts.astype(np.int8)
    width = draw(st.integers(min_value=50, max_value=1200))
    overlap = draw(st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.5]))
    single = draw(st.sampled_from([0, 100, 100_000]))
    return total, cuts, Limits(width, overlap, single)


@settings(max_examples=300, deadline=None)
@given(documents())
def test_windows_cover_the_document_in_order_within_limits(
    case: tuple[int, np.ndarray, Limits],
) -> None:
    total, cuts, limits = case
    spans = plan_spans(total, cuts, limits)
    assert spans[0].start == 0 and spans[0].new_start == 0
    assert spans[-1].end == total
    for previous, span in itertools.pairwise(spans):
        assert span.new_start == previous.end  # new text partitions the document
        assert previous.start < span.start <= span.new_start  # in order, always moving on
        assert span.start >= previous.start + 1
    for span in spans:
        assert span.tokens <= limits.window_tokens
        assert span.new_start < span.end or total == 0
    for span in spans[1:]:
        assert span.overlap_tokens <= limits.overlap_tokens
        assert span.overlap_tokens >= limits.overlap_tokens - int(
            limits.overlap_tokens * OVERLAP_SLACK
        )
    for span in spans[:-1]:  # a window ends early only to meet a boundary, never by much
        assert span.tokens >= limits.window_tokens - int(limits.window_tokens * END_SLACK)


@settings(max_examples=100, deadline=None)
@given(documents())
def test_cuts_prefer_the_best_boundary_in_reach(case: tuple[int, np.ndarray, Limits]) -> None:
    total, cuts, limits = case
    spans = plan_spans(total, cuts, limits)
    for span in spans[:-1]:
        ideal = span.start + limits.window_tokens
        low = max(span.new_start + 1, ideal - int(limits.window_tokens * END_SLACK))
        assert cuts[span.end] == cuts[low : ideal + 1].max()


def test_a_document_within_the_single_pass_threshold_is_one_window() -> None:
    cuts = np.zeros(901, dtype=np.int8)
    assert len(plan_spans(900, cuts, Limits(1000, 0.2, 1000))) == 1
    assert len(plan_spans(900, cuts, Limits(800, 0.2, 100_000))) == 2  # over the window
    # over the threshold the windows take their full size: this one still fits one
    assert len(plan_spans(900, cuts, Limits(1000, 0.2, 500))) == 1
    assert len(plan_spans(1900, np.zeros(1901, dtype=np.int8), Limits(1000, 0.2, 500))) == 3


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        plan_spans(10, np.zeros(11, dtype=np.int8), Limits(10))
    with pytest.raises(ValueError):
        plan_spans(10, np.zeros(11, dtype=np.int8), Limits(100, overlap=0.9))


PARAGRAPH = st.lists(
    st.sampled_from(
        [
            "The",
            "supplier",
            "shall",
            "pay",
            "données",
            "数据。",
            "协议",
            "fees.",
            "Risk!",
            "x" * 30,
            "fees.\n",
            '"Quoted." ',
            "(note.)",
            "3.14",
            "12345",
            "  ",
            "\t",
            "Mr. Smith",
            "🙂.",
            "—",
        ]
    ),
    min_size=1,
    max_size=40,
).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.one_of(PARAGRAPH, PARAGRAPH.map(lambda p: "## " + p)), min_size=1, max_size=40),
    st.integers(min_value=50, max_value=400),
)
def test_real_windows_hold_exact_token_limits_and_tile_the_text(
    paragraphs: list[str], width: int
) -> None:
    text = "\n\n".join(paragraphs)
    layout = lay_out(text, Limits(width, 0.2, 0))
    assert layout.tokens == tokens.count(text)
    windows = layout.windows
    assert windows[0].start == 0 and windows[-1].end == len(text)
    for previous, window in itertools.pairwise(windows):
        assert window.new_start == previous.end
        assert window.start < window.new_start or width < 5
    for window in windows:
        assert window.tokens == tokens.count(text[window.start : window.end]) <= width
    assert "".join(text[w.new_start : w.end] for w in windows) == text


def test_a_width_no_cut_can_hold_is_a_usage_error_naming_a_width_that_can(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where cuts inside words keep merging into windows over the limit, the planner tightens
    down to the smallest window and then says which --window-tokens to use, never raising
    its own ValueError (found on 8.9 MB of Python sources at --window-tokens 50)."""
    real_windows, real_spans = layout._windows, layout.plan_spans
    widths: list[int] = []

    def spans_at(total: int, cuts: np.ndarray, limits: Limits) -> list[Span]:
        widths.append(limits.window_tokens)
        return real_spans(total, cuts, limits)

    def over_the_limit(text: str, starts: np.ndarray, cuts: np.ndarray, spans, rate):  # type: ignore[no-untyped-def]
        return [replace(w, tokens=60) for w in real_windows(text, starts, cuts, spans, rate)]

    monkeypatch.setattr(layout, "plan_spans", spans_at)
    monkeypatch.setattr(layout, "_windows", over_the_limit)
    text = "Payment follows delivery. " * 400
    with pytest.raises(UsageError, match=r"--window-tokens 52 is too small .* use 104 or more"):
        lay_out(text, Limits(52, 0.2, 0))
    assert widths[0] == 52 and min(widths) == MIN_WINDOW_TOKENS  # tightened to the smallest


def test_token_starts_map_to_characters_for_non_latin_text() -> None:
    text = "数据保护协议。 The supplier — données personnelles. 🙂 end"
    starts = token_starts(text)
    assert starts[0] == 0 and starts[-1] == len(text)
    assert list(starts) == sorted(starts)
    assert len(starts) - 1 == tokens.count(text)


def test_windows_end_on_sections_paragraphs_and_sentences() -> None:
    text = "Intro sentence one. Intro two.\n\n## Section\n\nBody text here. More body."
    starts = token_starts(text)
    cuts = cut_qualities(text, starts)
    at = {int(starts[i]): Cut(int(c)) for i, c in enumerate(cuts) if c}
    assert at[text.index("## Section")] is Cut.SECTION
    assert at[text.index("Body")] is Cut.PARAGRAPH
    assert at[text.index(" Intro two")] is Cut.SENTENCE


def test_chinese_and_japanese_sentences_end_at_their_stops_without_a_space() -> None:
    from ctxopt.analyze.sentences import split_sentences

    chinese = "".join(f"这是第{i}个句子，讨论付款期限。" for i in range(3))
    text = f"# 标题\n\n{chinese}次の文です！"
    assert [s.text for s in split_sentences(text)] == [
        "# 标题",
        "这是第0个句子，讨论付款期限。",
        "这是第1个句子，讨论付款期限。",
        "这是第2个句子，讨论付款期限。",
        "次の文です！",
    ]
    starts = token_starts(text)
    cuts = cut_qualities(text, starts)
    at = {int(starts[i]): Cut(int(c)) for i, c in enumerate(cuts) if c}
    assert at.get(text.index("这是第1")) is Cut.SENTENCE  # a window may end there


def test_the_estimate_uses_3_5_or_3_0_characters_a_token() -> None:
    assert estimate_tokens("a" * 350) == 100
    assert estimate_tokens("数" * 300) == 100
    assert estimate_tokens("数" * 100 + "a" * 50) == 50  # mostly non-Latin: / 3.0
