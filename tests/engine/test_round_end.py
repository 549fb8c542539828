"""Round end (RULES.md §6, §11.7) with each player's score (§7)."""

from __future__ import annotations

import pytest

from companion.engine import RoundInPlay, RuleSet, preset, round_status
from tests.engine.util import CROSS, lay, tiles

CROSS_LAYOUT = lay("9-9", *CROSS)
FOOT = lay("9-9", *CROSS, ("D1", "S1", "5-5"))
# Double-6: a foot on 5-5 with one toe, and only 5-0 of the 5s left off the table, so it can
# never get its 3 toes (RULES.md §5.4, §11.3; END-04).
DOOMED = lay(
    "6-6",
    ("S1", "C", "6-5"), ("S2", "C", "6-1"), ("S3", "C", "6-2"), ("S4", "C", "6-3"),
    ("T1", "S2", "1-5"), ("T2", "S3", "2-5"), ("T3", "S4", "3-5"),
    ("D1", "S1", "5-5"), ("T4", "D1", "5-4"),
    n=6,
)  # fmt: skip


def status_of(layout, hands, yard_count, rules, **known):  # noqa: ANN001, ANN003, ANN201
    """round_status of the state these make (the tests' positions as before)."""
    state = RoundInPlay(layout=layout, hands=hands, yard_count=yard_count, rules=rules, **known)
    return round_status(state)


def test_a_player_who_goes_out_ends_the_round_even_with_a_foot_open() -> None:  # END-01/02
    status = status_of(FOOT, {"P1": [], "P2": tiles("3-8", "0-0")}, 10, RuleSet())
    assert (status.over, status.reason, status.went_out) == (True, "OUT", "P1")
    assert {p: s.points for p, s in status.scores.items()} == {"P1": 0, "P2": 61}
    assert status.rule == "6"


@pytest.mark.parametrize(
    ("name", "points", "zero"), [("standard", 0, True), ("wikipedia", 50, False)]
)
def test_going_out_on_a_double(name: str, points: int, zero: bool) -> None:  # END-03
    status = status_of(
        FOOT, {"P1": [], "P2": tiles("3-8")}, 10, preset(name), went_out="P1",
        last_tile_was_double=True,
    )  # fmt: skip
    assert status.reason == "OUT"
    assert status.scores["P1"].points == points and status.scores["P1"].is_zero_round is zero


def test_blocked_when_nobody_can_play_or_draw() -> None:
    status = status_of(CROSS_LAYOUT, {"P1": tiles("4-4"), "P2": tiles("6-6", "4-1")}, 0, RuleSet())
    assert (status.over, status.reason) == (True, "BLOCKED")
    assert {p: s.points for p, s in status.scores.items()} == {"P1": 8, "P2": 17}


@pytest.mark.parametrize(
    ("p2", "yard", "over", "reason"),
    [
        (["2-4"], 0, True, "BLOCKED"),  # END-04: the foot can never be completed
        (["2-4"], 3, False, "YARD_NOT_EXHAUSTED"),  # END-05: the stuck could still draw
        (["5-0"], 0, False, "SOMEONE_CAN_PLAY"),  # a toe is still in a hand
    ],
)
def test_a_foot_that_can_never_be_completed(
    p2: list[str], yard: int, over: bool, reason: str
) -> None:
    status = status_of(DOOMED, {"P1": tiles("0-0", "1-1"), "P2": tiles(*p2)}, yard, RuleSet())
    assert (status.over, status.reason) == (over, reason)
    if not over:
        assert status.scores == {}


def test_not_over_while_anyone_can_play() -> None:  # END-07
    status = status_of(CROSS_LAYOUT, {"P1": tiles("4-4"), "P2": tiles("5-1")}, 0, RuleSet())
    assert (status.over, status.reason, status.can_play) == (False, "SOMEONE_CAN_PLAY", ("P2",))


@pytest.mark.parametrize(
    ("to_move", "yard", "over", "reason"),
    [
        ("P1", 0, True, "NO_DRAW"),  # END-08: the player to move is stuck, nothing to draw
        ("P2", 0, False, "SOMEONE_CAN_PLAY"),
        ("P1", 4, False, "SOMEONE_CAN_PLAY"),
        (None, 0, False, "SOMEONE_CAN_PLAY"),
    ],
)
def test_no_draw_variant(to_move: str | None, yard: int, over: bool, reason: str) -> None:
    hands = {"P1": tiles("4-4"), "P2": tiles("5-1", "2-2")}
    status = status_of(CROSS_LAYOUT, hands, yard, preset("nathanlong_no_draw"), to_move=to_move)
    assert (status.over, status.reason) == (over, reason)
    if over:
        assert {p: s.points for p, s in status.scores.items()} == {"P1": 8, "P2": 10}
    standard = status_of(CROSS_LAYOUT, hands, yard, RuleSet(), to_move=to_move)
    assert standard.reason == "SOMEONE_CAN_PLAY"


@pytest.mark.parametrize(
    ("players", "yard", "over", "reason"),
    [(3, 1, True, "BLOCKED"), (3, 2, False, "YARD_NOT_EXHAUSTED"), (2, 2, True, "BLOCKED"),
     (2, 3, False, "YARD_NOT_EXHAUSTED")],
)  # fmt: skip
def test_s001_reserve_counts_as_nothing_to_draw(
    players: int, yard: int, over: bool, reason: str
) -> None:
    stuck = {"P1": tiles("1-1"), "P2": tiles("2-2"), "P3": tiles("4-4")}  # nothing fits 5/3/7/0
    hands = dict(list(stuck.items())[:players])  # END-06
    status = status_of(CROSS_LAYOUT, hands, yard, preset("gamerules_seed001"), players=players)
    assert (status.over, status.reason) == (over, reason)


def test_the_centre_double_in_a_hand_is_refused_when_scoring() -> None:
    from companion.engine import EngineError

    with pytest.raises(EngineError) as err:
        status_of(CROSS_LAYOUT, {"P1": tiles("9-9"), "P2": tiles("1-1")}, 0, RuleSet())
    assert err.value.code == "CENTRE_DOUBLE_IN_HAND"


@pytest.mark.parametrize(
    ("hands", "went_out"),
    [({"P1": [], "P2": []}, None), ({"P1": [], "P2": ["1-1"]}, "P2")],
)
def test_only_one_player_can_go_out(hands: dict, went_out: str | None) -> None:
    """Regression: two empty hands were both scored 0 as 'went out' (§6, §11.6)."""
    from companion.engine import EngineError

    parsed = {p: tiles(*h) for p, h in hands.items()}
    with pytest.raises(EngineError) as err:
        status_of(CROSS_LAYOUT, parsed, 0, RuleSet(), went_out=went_out)
    assert err.value.code == "SEVERAL_WENT_OUT"
