"""The checker's contract (docs/QUESTIONS.md): a question dict in, an answer dict out."""

from __future__ import annotations

import pytest

from companion.engine import answer, answer_document
from tests.engine.util import CROSS, layout_json

STANDARD = {"preset": "standard", "overrides": {}}
CROSS_JSON = layout_json("9-9", *CROSS)
FOOT_JSON = layout_json("9-9", *CROSS, ("D1", "S1", "5-5"))


def ask(category: str, ruleset: object = STANDARD, **inp: object) -> dict:
    return answer({"id": "Q", "category": category, "ruleset": ruleset, "input": inp})


def test_placement_answer_shape() -> None:
    got = ask("placement", set=9, layout=CROSS_JSON, move={"tile": "5-5", "on": "S1"})
    assert (got["legal"], got["reason"], got["new_open_end"]) == (True, "OK", 5)
    assert got["creates_foot_needing_toes"] == 3 and got["message"] and got["rule"] == "5.4"
    bad = ask("placement", set=9, layout=FOOT_JSON, move={"tile": "3-8", "on": "S2"})
    assert (bad["legal"], bad["reason"]) == (False, "FOOT_INCOMPLETE")
    assert "new_open_end" not in bad


@pytest.mark.parametrize(
    ("turn", "move", "reason"),
    [
        # PLC-28: the player who lays the double does not also lay the first toe.
        ([{"player": "P1", "tile": "5-5", "on": "S1"}], {"player": "P1", "tile": "5-2", "on": "D1"},
         "ONE_TILE_PER_TURN"),
        ([{"player": "P1", "tile": "5-5", "on": "S1"}], {"player": "P2", "tile": "5-2", "on": "D1"},
         "OK"),
        # The id of a tile placed earlier in the list is T1 (D1 for a double).
        ([{"player": "P1", "tile": "5-1", "on": "S1"}], {"player": "P2", "tile": "1-2", "on": "T1"},
         "OK"),
    ],
)  # fmt: skip
def test_placement_turns(turn: list, move: dict, reason: str) -> None:
    got = ask("placement", set=9, layout=CROSS_JSON, turn=turn, move=move)
    assert got["reason"] == reason


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("not a question", "BAD_QUESTION"),
        ({"category": "gossip", "input": {}}, "UNKNOWN_CATEGORY"),
        ({"category": "scoring", "ruleset": {"preset": "house"}, "input": {"hand": []}},
         "UNKNOWN_PRESET"),
        ({"category": "scoring", "ruleset": {"overrides": {"nope": 1}}, "input": {"hand": []}},
         "UNKNOWN_SWITCH"),
        ({"category": "scoring", "input": {"set": 6, "hand": ["7-1"]}}, "TILE_OUTSIDE_SET"),
        ({"category": "scoring", "input": {"hand": ["1-2", "2-1"]}}, "DUPLICATE_TILE"),
        ({"category": "scoring", "input": {"hand": ["one-two"]}}, "BAD_TILE"),
        ({"category": "placement", "input": {"set": 9, "layout": CROSS_JSON}}, "MISSING_INPUT"),
        ({"category": "setup", "input": {"set": 9, "players": 13}}, "BAD_PLAYERS"),
        ({"category": "tiebreak", "input": {"round_scores": {"A": [-3]}}}, "BAD_SCORE"),
        ({"category": "round_end", "input": {"set": 9, "layout": CROSS_JSON, "yard_count": 0,
          "hands": {"A": [], "B": []}}}, "SEVERAL_WENT_OUT"),
    ],
)  # fmt: skip
def test_malformed_questions_get_error_answers(question: object, code: str) -> None:
    got = answer(question)
    assert set(got) == {"error"}
    assert got["error"]["code"] == code and got["error"]["message"]


def test_an_impossible_layout_names_the_first_bad_placement() -> None:
    layout = layout_json("9-9", ("S1", "C", "9-5"), ("X1", "S1", "5-1"))
    got = ask("placement", set=9, layout=layout, move={"tile": "9-3", "on": "C"})
    assert got["error"]["code"] == "SPOKES_INCOMPLETE"
    assert "X1" in got["error"]["where"]


def test_draw_answer_echoes_tiles_as_written() -> None:
    got = ask("draw", set=9, layout=CROSS_JSON, hand=["3-5", "4-4"], yard_count=5)
    assert got["has_legal_play"] is True and got["turn_result"] == "PLAY"
    assert got["legal_plays"] == [["3-5", "S1"], ["3-5", "S2"]]
    stuck = ask("draw", set=9, layout=CROSS_JSON, hand=["4-4"], yard_count=5, tile_drawn="5-2")
    assert (stuck["must_draw"], stuck["drawn_tile_playable"], stuck["must_play_drawn"]) == (
        True, True, True
    )  # fmt: skip
    assert stuck["drawable_tiles"] == 5 and stuck["turn_result"] == "PLAY"


def test_round_end_answer() -> None:
    got = ask(
        "round_end", set=9, players=2, layout=CROSS_JSON, yard_count=0,
        hands={"A": ["4-4"], "B": ["6-6", "8-1"]},
    )  # fmt: skip
    assert (got["round_over"], got["reason"], got["scores"]) == (True, "BLOCKED", {"A": 8, "B": 21})
    out = ask(
        "round_end", set=9, layout=CROSS_JSON, hands={"B": ["6-6"]},
        event={"player": "A", "tile": "5-1", "on": "S1", "hand_after": []},
    )  # fmt: skip
    assert (out["reason"], out["scores"], out["counts_as_zero_round"]) == (
        "OUT", {"B": 12, "A": 0}, True
    )  # fmt: skip


def test_scoring_answers() -> None:
    assert ask("scoring", hand=["0-0", "2-3"])["score"] == 55
    got = ask("scoring", round_scores={"A": [10, 0], "B": [5, 5]})
    assert got["totals_after_each_round"] == {"A": [10, 10], "B": [5, 10]}
    # After round 2 A and B both have 10; A has a zero round, so A leads (§8 applied each round).
    assert got["leader_after_each_round"] == ["B", "A"]


def test_tiebreak_answer() -> None:
    got = ask("tiebreak", round_scores={"A": [0, 5, 15], "B": [0, 8, 12]})
    assert got["winners"] == ["A"] and got["decided_at"] == "lowest_single_nonzero_round"
    assert got["totals"] == {"A": 20, "B": 20} and got["zero_rounds"] == {"A": 1, "B": 1}
    assert got["best_nonzero_round"] == {"A": 5, "B": 8} and got["rule"] == "8"


def test_round_sequence_answer() -> None:
    got = ask(
        "round_sequence", {"preset": "hcherndon_app"}, set=9, rounds_played=[9],
        holders={"8-8": None},
    )  # fmt: skip
    assert (got["start_double"], got["burned"], got["passed_over"]) == (7, [], [8])
    assert (got["tiles"], got["total_pips"], got["rounds"], got["game_over"]) == (
        55,
        495,
        10,
        False,
    )


def test_setup_answer_for_several_player_counts() -> None:
    got = ask("setup", {"preset": "gamerules_seed001"}, set=9, players_list=[2, 8])
    assert got["hand_size"] == {"2": 21, "8": 5}
    assert got["yard_after_deal"] == {"2": 12, "8": 14}


def test_start_player_by_search_order() -> None:
    got = ask(
        "start_player", {"preset": "gamerules_seed001"}, set=9, round=1,
        seats_clockwise=["A", "B", "C"],
        search_order=[{"player": "A", "tile": "3-4"}, {"player": "B", "tile": "9-9"}],
    )  # fmt: skip
    assert (got["starter"], got["first_spoke_by"]) == ("B", "B")
    assert got["start_double_set_aside_before_deal"] is True


def test_answer_document_keys_by_id() -> None:
    answers = answer_document(
        {"cases": [{"id": "A1", "category": "scoring", "input": {"hand": ["1-1"]}}, {"x": 1}]}
    )
    assert answers["A1"]["score"] == 2
    assert answers["#1"]["error"]["code"] == "UNKNOWN_CATEGORY"
    assert answer_document({"no": "cases"})["#document"]["error"]["code"] == "BAD_DOCUMENT"
