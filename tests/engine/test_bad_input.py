"""Malformed questions found by differential testing (issue 8, item 10): each is refused with
the right error, or answered with exactly the keys that apply, and none costs time out of
proportion to its size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, SupportsIndex

import pytest

from companion.engine import RuleSet, answer, decide, records
from tests.engine.util import CROSS, layout_json

CROSS_JSON = layout_json("9-9", *CROSS)
DRAWN_KEYS = {"drawn_tile_playable", "must_play_drawn", "may_play_drawn"}


def ask(category: str, **inp: object) -> dict:
    return answer(
        {"id": "Q", "category": category, "ruleset": {"preset": "standard"}, "input": inp}
    )


# --- round_end: the event's tile and the hand after it ----------------------------------------
def round_end(event: dict, hands: dict | None = None) -> dict:
    return ask(
        "round_end", set=9, layout=CROSS_JSON, yard_count=3,
        hands=hands if hands is not None else {"B": ["6-6"]}, event=event,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("event", "hands", "where"),
    [
        # the played tile is still in another player's hand
        ({"player": "A", "tile": "5-1", "on": "S1", "hand_after": ["2-2"]},
         {"B": ["5-1", "6-6"]}, "input.event.tile"),
        # the played tile is already on the table, somewhere else than where it is played
        ({"player": "A", "tile": "9-5", "on": "S2", "hand_after": ["2-2"]}, None,
         "input.event.tile"),
        # the played tile is the centre double itself
        ({"player": "A", "tile": "9-9", "on": "S1", "hand_after": ["2-2"]}, None,
         "input.event.tile"),
        # the hand after the play holds a tile that is on the table
        ({"player": "A", "tile": "5-1", "on": "S1", "hand_after": ["9-3"]}, None,
         "input.event.hand_after[0]"),
    ],
)  # fmt: skip
def test_an_event_that_shows_a_tile_twice_is_refused(event: dict, hands: Any, where: str):
    got = round_end(event, hands)
    assert set(got) == {"error"}, got
    assert (got["error"]["code"], got["error"]["where"]) == ("DUPLICATE_TILE", where)


def test_an_event_already_drawn_where_it_was_played_still_answers() -> None:
    # S1 = 9-5 lies on the centre: the event may describe that very play.
    got = round_end({"player": "A", "tile": "9-5", "on": "C", "hand_after": ["2-2"]})
    assert got["round_over"] is False
    got = round_end({"player": "A", "tile": "5-1", "on": "S1", "hand_after": []})
    assert (got["reason"], got["counts_as_zero_round"]) == ("OUT", True)


# --- draw: the drawn tile's keys only when there was a draw ----------------------------------
@pytest.mark.parametrize(
    ("hand", "yard"),
    [(["3-5"], 5), (["4-4"], 0)],  # the player can play / cannot draw: no drawn tile to judge
    ids=["can-play", "cannot-draw"],
)
def test_a_drawn_tile_that_was_not_drawn_leaves_its_keys_out(hand: list, yard: int) -> None:
    got = ask("draw", set=9, layout=CROSS_JSON, hand=hand, yard_count=yard, tile_drawn="1-2")
    assert "error" not in got
    assert not DRAWN_KEYS & set(got), got
    assert None not in got.values()


def test_a_drawn_tile_after_a_draw_is_judged() -> None:
    got = ask("draw", set=9, layout=CROSS_JSON, hand=["4-4"], yard_count=5, tile_drawn="5-2")
    assert {k: got[k] for k in DRAWN_KEYS} == dict.fromkeys(DRAWN_KEYS, True)


# --- scoring: the leader after each round in one pass -------------------------------------------
class CountingList(list):
    """A list of scores that counts how many scores are read from it."""

    reads = 0

    def __iter__(self) -> Iterator[Any]:
        for item in super().__iter__():
            CountingList.reads += 1
            yield item

    def __getitem__(self, index: SupportsIndex | slice) -> Any:  # type: ignore[override]
        got = super().__getitem__(index)
        CountingList.reads += len(got) if isinstance(index, slice) else 1
        return got


def test_the_leader_after_each_round_reads_each_score_a_few_times() -> None:
    # The old code re-ran the whole tie-break on every prefix: 2,500 rounds read each score
    # about 1,250 times (over a second). The work must grow with rounds, not their square.
    from companion.engine.tiebreak import leaders_by_round

    rounds = 2500
    scores = {p: CountingList((i * 7 + r) % 13 for r in range(rounds)) for i, p in enumerate("AB")}
    CountingList.reads = 0
    leaders = leaders_by_round(scores, RuleSet())
    assert len(leaders) == rounds
    assert CountingList.reads <= 10 * rounds * len(scores)


@pytest.mark.parametrize("extension", ["shared", "next_lowest_nonzero"])
def test_the_leaders_match_the_tie_break_on_every_prefix(extension: str) -> None:
    from companion.engine.tiebreak import leaders_by_round

    rules = RuleSet().with_overrides({"tiebreak_exhausted": extension})
    scores = {
        "A": [0, 5, 10, 0, 15, 3], "B": [5, 0, 10, 0, 12, 6], "C": [0, 5, 12, 0, 13],
        "D": [5, 0, 0, 10, 15, 3, 1],
    }  # fmt: skip
    want = [
        decide(records({p: v[: r + 1] for p, v in scores.items()}), rules).winners for r in range(7)
    ]
    assert leaders_by_round(scores, rules) == want


def test_an_engine_fault_is_an_error_answer_not_an_exception(monkeypatch) -> None:
    from companion.engine import questions

    def broken(q):  # noqa: ANN001, ANN202
        raise IndexError("a bug")

    monkeypatch.setitem(questions.HANDLERS, "scoring", broken)
    got = answer({"category": "scoring", "input": {"hand": []}})
    assert got["error"]["code"] == "ENGINE_FAULT" and got["error"]["message"]
