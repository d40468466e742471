"""What ended a selection, as `pack` reports it (`stopped_by`)."""

from __future__ import annotations

from ctxopt.pack.api import stop_reason
from ctxopt.types import Dropped, DropReason, StopReason

from .test_select import hit


def test_a_chunk_turned_away_for_room_means_the_budget_ended_it() -> None:
    dropped = [
        Dropped(hit("a.py", "f", 0.5, 10), DropReason.PER_FILE_CAP, 8),
        Dropped(hit("b.py", "g", 0.4, 900), DropReason.NO_ROOM),
    ]
    assert stop_reason(dropped, room_left=500) is StopReason.BUDGET


def test_a_chunk_the_cap_held_back_that_would_fit_means_the_cap_ended_it() -> None:
    dropped = [Dropped(hit("a.py", "f", 0.5, 100), DropReason.PER_FILE_CAP, 8)]
    assert stop_reason(dropped, room_left=500) is StopReason.PER_FILE_CAP
    assert stop_reason(dropped, room_left=50) is StopReason.BUDGET  # it would not have fitted


def test_a_chunk_that_made_way_for_a_better_one_of_its_file_was_held_back_by_the_cap() -> None:
    dropped = [
        Dropped(hit("a.py", "f", 0.5, 100), DropReason.DISPLACED),
        Dropped(hit("c.py", "h", 0.3, 20), DropReason.NEAR_DUPLICATE),
    ]
    assert stop_reason(dropped, room_left=500) is StopReason.PER_FILE_CAP


def test_nothing_held_back_means_the_candidates_ran_out() -> None:
    dropped = [Dropped(hit("c.py", "h", 0.3, 20), DropReason.NEAR_DUPLICATE)]
    assert stop_reason(dropped, room_left=500) is StopReason.CANDIDATES
    assert stop_reason([], room_left=500) is StopReason.CANDIDATES
