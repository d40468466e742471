"""Window term statistics kept per file content: the same ranking as counting every line
afresh, and a changed file is read anew."""

from __future__ import annotations

import math
import random
from collections import Counter

from ctxopt.retrieve.window_cache import FILE_TERMS, FileTermsCache
from ctxopt.retrieve.windows import (
    K1,
    WINDOW_LINES,
    WINDOW_STRIDE,
    B,
    Window,
    rank_windows,
    task_terms,
    terms_of,
)

WORDS = ["retry", "delay", "backoff", "limit", "session", "cookie", "parse", "value", "the"]


def reference(task: str, files: dict[str, list[str]]) -> list[Window]:
    """BM25 over windows, each window's words counted from its lines (no cache)."""
    wanted = task_terms(task)
    stats = []
    for path, lines in files.items():
        for start in range(0, max(1, len(lines) - WINDOW_LINES + WINDOW_STRIDE), WINDOW_STRIDE):
            found = [t for line in lines[start : start + WINDOW_LINES] for t in terms_of(line)]
            counts = Counter(t for t in found if t in wanted)
            end = min(len(lines), start + WINDOW_LINES)
            stats.append((path, start + 1, end, len(found), counts))
    if not stats or not wanted:
        return []
    average = sum(s[3] for s in stats) / len(stats) or 1.0
    df = Counter(t for s in stats for t in s[4])
    idf = {t: math.log(1.0 + (len(stats) - n + 0.5) / (n + 0.5)) for t, n in df.items()}
    ranked = []
    for path, first, last, length, counts in stats:
        norm = K1 * (1.0 - B + B * length / average)
        score = sum(idf[t] * tf * (K1 + 1.0) / (tf + norm) for t, tf in counts.items())
        if score > 0:
            ranked.append(Window(path, first, last, score))
    ranked.sort(key=lambda w: (-w.score, w.path, w.start_line))
    return ranked


def random_file(rng: random.Random, n: int) -> list[str]:
    return [
        "    "
        + " ".join(f"{rng.choice(WORDS)}_{rng.choice(WORDS)}" for _ in range(rng.randint(0, 6)))
        for _ in range(n)
    ]


def test_cached_statistics_rank_as_counting_each_line_afresh() -> None:
    rng = random.Random(7)
    for n in (0, 1, 29, 30, 31, 59, 60, 61, 95, 240):
        files = {"a.py": random_file(rng, n), "b.py": random_file(rng, rng.randint(1, 200))}
        for task in ("retry delay", "session cookie backoff", "parse the limit value"):
            expected = reference(task, files)
            assert [(w.path, w.start_line, w.end_line) for w in rank_windows(task, files)] == [
                (w.path, w.start_line, w.end_line) for w in expected
            ]
            for got, want in zip(rank_windows(task, files), expected, strict=True):
                assert math.isclose(got.score, want.score, rel_tol=1e-12)


def test_a_changed_file_is_split_again_and_ranks_by_its_new_text() -> None:
    lines = [f"    value_{i} = compute(value_{i - 1})" for i in range(120)]
    before = rank_windows("needle", {"a.py": lines})
    assert before == []
    misses = FILE_TERMS.misses
    lines[100] = "    needle = find(haystack)"
    after = rank_windows("needle", {"a.py": lines})
    assert FILE_TERMS.misses == misses + 1
    assert after and after[0].start_line <= 101 <= after[0].end_line
    assert rank_windows("needle", {"a.py": lines}) == after
    assert FILE_TERMS.misses == misses + 1  # the same text: from the cache


def test_the_cache_keeps_its_bound_dropping_the_least_recently_used() -> None:
    cache = FileTermsCache(max_postings=30)
    files = [[f"word_{k}_{i} other_{k}" for i in range(10)] for k in range(4)]
    for lines in files:
        cache.terms(lines)
    assert len(cache) < 4
    misses = cache.misses
    cache.terms(files[-1])
    assert cache.misses == misses  # the newest stayed
    cache.terms(files[0])
    assert cache.misses == misses + 1  # the oldest went
