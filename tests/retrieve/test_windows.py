import itertools

from ctxopt.retrieve.windows import (
    WINDOW_LINES,
    WINDOW_STRIDE,
    Window,
    WindowLookup,
    rank_windows,
    terms_of,
)


def filler(n: int, word: str = "value") -> list[str]:
    return [f"    {word}_{i} = compute({word}_{i - 1})" for i in range(n)]


def test_terms_split_identifiers_and_drop_stop_words() -> None:
    terms = terms_of("the retryDelay of get_pager_file")
    assert "retrydelay" in terms and "retry" in terms and "delay" in terms
    assert "get_pager_file" in terms and "pager" in terms
    assert "the" not in terms and "of" not in terms


def test_the_window_holding_the_task_words_ranks_first() -> None:
    lines = filler(200)
    lines[130] = "    timeout = retry_delay(attempt) + backoff_limit"
    lines[131] = "    if backoff_limit is None: return timeout"
    ranked = rank_windows("backoff limit undefined in retry delay", {"ky.ts": lines})
    assert ranked, "some window must score"
    top = ranked[0]
    assert top.path == "ky.ts"
    assert top.start_line <= 131 and top.end_line >= 132
    away = [w for w in ranked if w.end_line < 131 or w.start_line > 132]
    assert all(w.score < top.score for w in away)


def test_windows_overlap_and_cover_the_end_of_the_file() -> None:
    lines = filler(150)
    lines[-1] = "    needle = 1"
    ranked = rank_windows("needle", {"a.py": lines})
    assert any(w.end_line == 150 for w in ranked)
    starts = sorted(w.start_line for w in ranked)
    assert all(b - a == WINDOW_STRIDE for a, b in itertools.pairwise(starts))
    assert all(w.end_line - w.start_line + 1 <= WINDOW_LINES for w in ranked)


def test_words_common_to_every_file_weigh_less_than_rare_ones() -> None:
    common = filler(60, "session")
    rare = filler(60, "session")
    rare[10] = "    cookie_jar = CookieJar()"
    ranked = rank_windows("session cookie", {"a.py": common, "b.py": rare})
    assert ranked[0].path == "b.py"


def test_no_words_no_windows() -> None:
    assert rank_windows("the of and", {"a.py": filler(10)}) == []
    assert rank_windows("retry", {}) == []


def test_best_window_only_counts_windows_of_the_same_file_that_overlap() -> None:
    windows = [Window("a.py", 1, 60, 3.0), Window("a.py", 31, 90, 5.0), Window("b.py", 1, 60, 9.0)]
    best = WindowLookup(windows).best
    assert best("a.py", 10, 20) == windows[0]
    assert best("a.py", 50, 55) == windows[1]
    assert best("a.py", 200, 210) is None
    assert best("c.py", 1, 10) is None
