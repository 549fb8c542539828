"""Reason codes have one home (engine/reasons.py) and a verdict carries the parameters its
reason is worded from (issue 12), while the QUESTIONS.md answers stay exactly as they were."""

from __future__ import annotations

import json
from pathlib import Path

from companion.api.openapi import DECIDED_AT, REASONS, TURN_RESULTS
from companion.engine import DominoSet, Layout, Reason, answer_document, check_move
from companion.engine.explain import placement_verdict, position_of, round_end_status
from companion.engine.moves import RULE_SECTION
from companion.engine.reasons import MOVE_REASONS, ROUND_END_REASONS, SECTION, DecidedAt
from companion.engine.tiebreak import DECIDED_LABELS

NINE = DominoSet(9)
DATA = Path(__file__).resolve().parents[1] / "data"


def spokes(*tiles: str) -> Layout:
    layout = Layout.start(NINE.parse("9-9"))
    for n, tile in enumerate(tiles, start=1):
        layout = layout.attach(NINE.parse(tile), "C", f"S{n}")
    return layout


def test_every_table_of_codes_derives_from_the_enums():
    assert set(RULE_SECTION) == set(MOVE_REASONS)
    assert tuple(Reason) == REASONS and set(MOVE_REASONS) | set(ROUND_END_REASONS) == set(Reason)
    assert set(DECIDED_AT) == set(DecidedAt) == set(DECIDED_LABELS)
    assert TURN_RESULTS == ("PLAY", "PASS", "DRAW_AGAIN")
    assert all(code in SECTION for code in (*REASONS, *DECIDED_AT, *TURN_RESULTS))


def test_the_answers_still_carry_plain_strings_and_no_parameters():
    answers = answer_document(json.loads((DATA / "cases.json").read_text()))
    placement = [a for a in answers.values() if "legal" in a]
    assert placement and all(type(a["reason"]) is str for a in placement)
    assert not any("params" in a for a in answers.values())


def test_spokes_incomplete_carries_the_centre_and_its_count():
    verdict = check_move(spokes("9-5"), NINE.parse("5-4"), "S1")
    assert verdict.reason == Reason.SPOKES_INCOMPLETE
    assert verdict.params == {
        "tile": "5-4",
        "on": "S1",
        "centre": "9-9",
        "spokes": 1,
        "required": 4,
        "number": 9,
    }


def test_foot_incomplete_carries_the_foot():
    layout = spokes("9-5", "9-4", "9-3", "9-2").attach(NINE.parse("5-5"), "S1")
    verdict = check_move(layout, NINE.parse("6-4"), "S2")
    assert verdict.reason == Reason.FOOT_INCOMPLETE
    assert verdict.params["double"] == "5-5" and verdict.params["toes"] == 0
    assert verdict.params["foot"] == "D1" and verdict.params["number"] == 5


def test_a_legal_move_says_what_it_was_played_as():
    layout = spokes("9-5", "9-4", "9-3")
    verdict = check_move(layout, NINE.parse("9-2"), "C")
    assert verdict.legal and verdict.params["played_as"] == "spoke"
    assert verdict.params["left"] == 0 and verdict.params["open_end"] == 2


def test_the_engines_reasoning_for_a_question():
    question = {
        "category": "placement",
        "ruleset": {"preset": "standard"},
        "input": {"layout": {"center": "9-9"}, "move": {"tile": "9-5", "on": "C"}},
    }
    layout, verdict = placement_verdict(question)
    assert verdict.legal and len(layout) == 0
    assert placement_verdict({"category": "placement", "input": {}}) is None
    round_end = {
        "category": "round_end",
        "ruleset": {"preset": "standard"},
        "input": {"layout": {"center": "9-9"}, "hands": {"A": []}, "yard_count": 0},
    }
    _layout, status = round_end_status(round_end)
    assert status.reason == Reason.OUT and status.went_out == "A"
    assert position_of({"input": {"layout": "nonsense"}}) is None
