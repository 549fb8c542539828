"""Move checks (RULES.md §0, §5): every reason code, its precedence, and legal moves."""

from __future__ import annotations

import pytest

from companion.engine import Layout, LayoutError, check_move, has_legal_play, legal_moves, play
from tests.engine.util import CROSS, lay, t, tiles

ONE_SPOKE = lay("9-9", ("S1", "C", "9-5"))
FULL_HUB = lay("9-9", *CROSS)
COVERED = lay("9-9", *CROSS, ("X1", "S1", "5-1"))
FOOT = lay("9-9", *CROSS, ("D1", "S1", "5-5"))
TWO_TOES = lay("9-9", *CROSS, ("D1", "S1", "5-5"), ("T1", "D1", "5-2"), ("T2", "D1", "5-8"))
FOOT_DONE = lay(
    "9-9", *CROSS, ("D1", "S1", "5-5"), ("T1", "D1", "5-2"), ("T2", "D1", "5-8"),
    ("T3", "D1", "5-6"),
)  # fmt: skip
BLANK_HUB = lay("0-0", ("S1", "C", "0-3"))
SIX_SPOKES = lay("9-9", *CROSS, k=6)

# (position, tile, on, played_this_turn, reason, new_open_end); the comment says which rule wins.
CASES = [
    (ONE_SPOKE, "5-1", "S1", 0, "SPOKES_INCOMPLETE", None),  # PLC-01
    (ONE_SPOKE, "4-2", "S1", 0, "SPOKES_INCOMPLETE", None),  # beats NO_MATCH
    (ONE_SPOKE, "5-5", "S1", 0, "SPOKES_INCOMPLETE", None),  # no double in the spoke phase
    (ONE_SPOKE, "5-5", "C", 0, "NO_MATCH", None),  # a spoke attempt without the centre number
    (ONE_SPOKE, "4-2", "S1", 1, "SPOKES_INCOMPLETE", None),  # beats ONE_TILE_PER_TURN
    (ONE_SPOKE, "4-2", "C", 1, "NO_MATCH", None),  # NO_MATCH beats ONE_TILE_PER_TURN
    (ONE_SPOKE, "9-3", "C", 1, "ONE_TILE_PER_TURN", None),
    (ONE_SPOKE, "9-3", "C", 0, "OK", 3),  # PLC-02
    (FULL_HUB, "9-1", "C", 0, "CENTER_FULL", None),
    (FULL_HUB, "4-2", "C", 0, "CENTER_FULL", None),  # beats NO_MATCH
    (FULL_HUB, "4-2", "S1", 0, "NO_MATCH", None),
    (FULL_HUB, "1-5", "S1", 0, "OK", 1),  # PLC-10
    (FULL_HUB, "5-5", "S1", 0, "OK", 5),  # PLC-13: starts a chicken foot
    (FULL_HUB, "0-0", "S4", 0, "OK", 0),
    (COVERED, "5-2", "S1", 0, "END_COVERED", None),
    (COVERED, "4-2", "S1", 0, "END_COVERED", None),  # beats NO_MATCH
    (COVERED, "1-2", "X1", 0, "OK", 2),
    (FOOT, "3-8", "S2", 0, "FOOT_INCOMPLETE", None),  # PLC-14
    (FOOT, "9-1", "C", 0, "FOOT_INCOMPLETE", None),  # beats CENTER_FULL
    (FOOT, "5-1", "S1", 0, "FOOT_INCOMPLETE", None),  # beats END_COVERED
    (FOOT, "3-3", "S2", 0, "FOOT_INCOMPLETE", None),  # no second double while a foot is open
    (FOOT, "3-8", "S2", 1, "FOOT_INCOMPLETE", None),  # beats ONE_TILE_PER_TURN
    (FOOT, "3-8", "D1", 0, "NO_MATCH", None),  # PLC-16: a toe without the 5
    (FOOT, "2-2", "D1", 0, "NO_MATCH", None),  # no double can be a toe
    (FOOT, "5-2", "D1", 1, "ONE_TILE_PER_TURN", None),  # PLC-28: the doubler lays no toe
    (FOOT, "5-2", "D1", 0, "OK", 2),
    (TWO_TOES, "6-5", "D1", 0, "OK", 6),
    (FOOT_DONE, "5-1", "D1", 0, "FOOT_FULL", None),  # a 4th toe
    (FOOT_DONE, "4-1", "D1", 0, "FOOT_FULL", None),  # beats NO_MATCH
    (FOOT_DONE, "3-1", "S2", 0, "OK", 1),  # PLC-22: play is free again
    (FOOT_DONE, "2-4", "T1", 0, "OK", 4),  # including on the toes' ends
    (FOOT_DONE, "2-2", "T1", 0, "OK", 2),  # and a new foot
    (FOOT_DONE, "2-4", "T2", 0, "NO_MATCH", None),
    (BLANK_HUB, "5-0", "C", 0, "OK", 5),  # PLC-24
    (BLANK_HUB, "5-5", "C", 0, "NO_MATCH", None),  # PLC-25
    (SIX_SPOKES, "9-2", "C", 0, "OK", 2),  # PLC-06
    (SIX_SPOKES, "5-1", "S1", 0, "SPOKES_INCOMPLETE", None),  # PLC-07
]
SECTIONS = {
    "SPOKES_INCOMPLETE": "5.2",
    "FOOT_INCOMPLETE": "5.4",
    "CENTER_FULL": "5.2",
    "FOOT_FULL": "5.4",
    "END_COVERED": "5.3",
    "NO_MATCH": "5.1",
    "ONE_TILE_PER_TURN": "5.1",
}


@pytest.mark.parametrize(("layout", "tile", "on", "played", "reason", "open_end"), CASES)
def test_reason_codes_and_precedence(
    layout: Layout, tile: str, on: str, played: int, reason: str, open_end: int | None
) -> None:
    verdict = check_move(layout, t(tile), on, played_this_turn=played)
    assert verdict.reason == reason, verdict.message
    assert verdict.legal is (reason == "OK")
    assert verdict.new_open_end == open_end
    assert verdict.message
    if reason != "OK":
        assert verdict.rule == SECTIONS[reason]
    else:
        assert verdict.rule.startswith("5.")
    assert verdict.as_answer()["reason"] == reason


def test_unlimited_tiles_per_turn() -> None:
    verdict = check_move(ONE_SPOKE, t("9-3"), "C", played_this_turn=3, tiles_per_turn="unlimited")
    assert verdict.legal


def test_doubles_and_toes_report_the_foot() -> None:
    double = check_move(FULL_HUB, t("5-5"), "S1")
    assert (double.creates_foot_needing_toes, double.foot_complete_after) == (3, None)
    first = check_move(FOOT, t("5-2"), "D1")
    assert (first.creates_foot_needing_toes, first.foot_complete_after) == (None, False)
    third = check_move(TWO_TOES, t("5-6"), "D1")
    assert third.foot_complete_after is True
    plain = check_move(FULL_HUB, t("5-1"), "S1")
    assert (plain.creates_foot_needing_toes, plain.foot_complete_after) == (None, None)
    answer = double.as_answer()
    assert answer["creates_foot_needing_toes"] == 3 and "foot_complete_after" not in answer


def test_bad_questions_raise_rather_than_being_illegal() -> None:
    with pytest.raises(LayoutError) as err:
        check_move(FULL_HUB, t("5-1"), "Q9")
    assert err.value.code == "UNKNOWN_ID"
    with pytest.raises(LayoutError) as err:
        check_move(FULL_HUB, t("9-5"), "S2")
    assert err.value.code == "DUPLICATE_TILE"


@pytest.mark.parametrize(
    ("layout", "hand", "moves"),
    [
        (ONE_SPOKE, ["9-3", "5-1", "5-5", "9-0"], [("9-3", "C"), ("9-0", "C")]),
        (FOOT, ["5-2", "3-1", "5-8", "3-3"], [("5-2", "D1"), ("5-8", "D1")]),
        (FULL_HUB, ["5-3", "7-7", "2-1"], [("5-3", "S1"), ("5-3", "S2"), ("7-7", "S3")]),
        (FULL_HUB, ["1-1", "2-4"], []),
    ],
)
def test_legal_moves(layout: Layout, hand: list[str], moves: list[tuple[str, str]]) -> None:
    got = legal_moves(layout, tiles(*hand))
    assert got == [(t(a), on) for a, on in moves]
    assert has_legal_play(layout, tiles(*hand)) is bool(moves)
    for tile, on in got:
        assert check_move(layout, tile, on).legal


def test_play_checks_then_attaches() -> None:
    after = play(FOOT, t("5-2"), "D1")
    assert after.children("D1") == 1 and after.open_foot == "D1"
    with pytest.raises(LayoutError) as err:
        play(FOOT, t("3-8"), "S2")
    assert err.value.code == "FOOT_INCOMPLETE"
