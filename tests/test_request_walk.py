"""The walk of a request through the code (benchmarks/request_walk.py, issue 23): what the
walk of a round save shows must hold, and its figures are the same on every run."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import request_walk  # noqa: E402


def stores(room: str) -> bool:
    """Is this the room that stores a round (``companion.services.round_store``)?"""
    return room.startswith("companion.services.") and "store" in room


@pytest.fixture(scope="module")
def walks() -> dict[str, request_walk.Trace]:
    """The traces of the three requests."""
    return request_walk.walk_requests()


def test_a_round_save_walks_from_the_blueprint_to_the_engine_and_the_store(walks) -> None:
    save = request_walk.measure("round save", "modules", walks["round save"].rooms)
    assert save.stays > 0 and save.returns == save.stays - save.rooms
    rooms = set(save.sequence)
    blueprint = [
        r for r in save.sequence if request_walk.floor_of(r) is request_walk.Floor.BLUEPRINT
    ]
    assert blueprint[0].startswith("companion.games.")  # the first blueprint room: the view
    assert any(r.startswith("companion.engine.") for r in rooms)  # the round is checked
    assert any(stores(r) for r in rooms)  # and stored
    assert request_walk.RENDER in rooms  # the htmx answer renders the round area


def test_a_hand_post_enters_the_table_blueprint_and_the_last_one_stores(walks) -> None:
    post = set(walks["hand post"].rooms)
    last = set(walks["hand post saving the round"].rooms)
    assert any(r.startswith("companion.table.") for r in post)
    assert not any(r.startswith("companion.games.") for r in post)
    assert not any(stores(r) for r in post)  # the round waits for the other hands
    assert any(stores(r) for r in last)  # auto-save stores it


def test_the_walk_counts_stays_returns_and_climbs_as_documented() -> None:
    view, check, form = (
        "companion.games.play",
        "companion.services.round_check",
        "companion.services.round_form",
    )
    assert [request_walk.floor_of(r) for r in (view, check, form)] == [4, 2, 2]
    walk = request_walk.measure("x", "modules", [view, check, check, form, check, view])
    # stays: view, check, form, check, view; returns: check (same floor), view (a climb)
    assert (walk.stays, walk.rooms, walk.returns, walk.climbs) == (5, 3, 2, 1)
    assert request_walk.folded(["a", "b", "c", "b", "c", "d"]) == ["a", "(b > c) x2", "d"]


def test_the_figures_are_the_same_on_a_second_run(walks) -> None:
    again = request_walk.walk_requests()
    assert request_walk.report(again) == request_walk.report(walks)


def test_only_code_of_the_house_is_traced_and_calls_up_are_named() -> None:
    from companion.engine import RuleSet

    with request_walk.traced() as trace:
        RuleSet.from_dict({"set_size": 9})
        sorted([3, 1, 2])  # neither the standard library nor this test is a room
    assert trace.rooms and trace.rooms[0] == "companion.engine.rules"
    assert all(r.startswith("companion.engine") for r in trace.rooms)
    assert not trace.calls_up
    up = Counter({("companion.services.round_store", "companion.games.play"): 2})
    walk = request_walk.measure("x", "modules", ["companion.games.play"], up)
    assert walk.calls_up == {"services.round_store > games.play": 2}
