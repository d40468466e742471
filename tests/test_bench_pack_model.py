"""The benchmark's model of a pack: leads first, then score per damped token, within budget."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from benchlib.pack_model import FILE_HEADER, Candidate, StoredCase, mean_shares, pack_shares


def case(*candidates: Candidate, changed_files: tuple[str, ...] = ("a.py",)) -> StoredCase:
    total = sum(c.changed for c in candidates) or 1
    return StoredCase("repo", "sha", candidates, total, frozenset(changed_files))


def test_the_budget_bounds_what_is_shown_and_weights_reorder_it() -> None:
    lexical_hit = Candidate("b.py", 300, (1.0, 0.0), 1.0, 0)
    named_hit = Candidate("a.py", 300, (0.0, 1.0), 1.0, 10)
    stored = case(lexical_hit, named_hit, changed_files=("a.py",))
    room = 300 + FILE_HEADER  # one entry and its file's header
    assert pack_shares(stored, (1.0, 0.5), room) == (0.0, 0.0)
    assert pack_shares(stored, (0.5, 1.0), room) == (1.0, 1.0)
    assert pack_shares(stored, (1.0, 0.5), 2 * room) == (1.0, 1.0)


def test_an_outline_reaches_its_file_but_shows_no_changed_line() -> None:
    outline = Candidate("a.py", 100, (1.0,), 0.6, 0)
    body = Candidate("a.py", 900, (0.5,), 1.0, 4)
    stored = StoredCase("repo", "sha", (outline, body), 4, frozenset({"a.py"}))
    assert pack_shares(stored, (1.0,), 200) == (0.0, 1.0)
    lines, files = mean_shares([stored], (1.0,), (200, 2000))
    assert lines == [0.0, 1.0] and files == [1.0, 1.0]


def test_further_chunks_of_a_file_count_less() -> None:
    first = Candidate("a.py", 100, (1.0,), 1.0, 0)
    second = Candidate("a.py", 100, (0.99,), 1.0, 0)
    other = Candidate("b.py", 100, (0.98,), 1.0, 5)
    stored = StoredCase("repo", "sha", (first, second, other), 5, frozenset({"b.py"}))
    # leads take only hits within 0.75 of the best that cost at most a quarter of the room:
    # with 600 tokens none is a lead, so the decay puts b.py before a second a.py chunk
    assert pack_shares(stored, (1.0,), 100 + 100 + 2 * FILE_HEADER + 10) == (1.0, 1.0)
