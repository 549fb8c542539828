"""Scoring (RULES.md §6, §7): pips in hand, the double-blank, blank halves, going out."""

from __future__ import annotations

import pytest

from companion.engine import (
    EngineError,
    RuleSet,
    Tile,
    hand_points,
    max_hand_points,
    preset,
    running_totals,
    score_hand,
    tile_points,
)
from companion.engine.scoring import double_blank_penalty_possible
from tests.engine.util import t, tiles


def rules(**overrides: object) -> RuleSet:
    return RuleSet().with_overrides(overrides)


@pytest.mark.parametrize(
    ("overrides", "tile", "points"),
    [
        ({}, "0-0", 50),  # the default
        ({"double_blank_value": 0}, "0-0", 0),  # S001 default
        ({"double_blank_value": 25}, "0-0", 25),  # DOCSLIB
        ({}, "0-7", 7),  # SCO-06: a blank half counts nothing beyond the other half
        ({}, "9-9", 18),
        ({"blank_half_value": 25}, "0-0", 50),  # SCO-07: 0-0 stays 50
        ({"blank_half_value": 25}, "0-5", 30),  # each blank half counts 25
        ({"blank_half_value": 25}, "0-7", 32),
        ({"blank_half_value": 25}, "3-4", 7),
        ({"blank_half_value": 25, "double_blank_value": 0}, "0-0", 0),
    ],
)
def test_tile_points(overrides: dict, tile: str, points: int) -> None:
    assert tile_points(t(tile), rules(**overrides)) == points


def test_hand_points_are_the_sum() -> None:
    assert hand_points(tiles("0-0", "2-3"), RuleSet()) == 55  # SCO-02
    assert hand_points(tiles("0-0", "2-3"), preset("gamerules_seed001")) == 5
    assert hand_points(tiles("0-0", "0-5"), preset("fundex_chicken_coop")) == 80
    assert hand_points([], RuleSet()) == 0


@pytest.mark.parametrize(
    ("rule", "on_double", "points", "zero", "penalty"),
    [
        ("allowed", False, 0, True, 0),
        ("allowed", True, 0, True, 0),  # SCO-09
        ("penalty_50", False, 0, True, 0),
        ("penalty_50", True, 50, False, 50),  # SCO-10: 50, and not a zero round
    ],
)
def test_going_out(rule: str, on_double: bool, points: int, zero: bool, penalty: int) -> None:
    score = score_hand(
        [], rules(going_out_on_double=rule), went_out=True, last_tile_was_double=on_double
    )
    assert (score.points, score.is_zero_round, score.penalty, score.went_out) == (
        points, zero, penalty, True
    )  # fmt: skip
    assert score.explanation


def test_a_blocked_hand_scores_its_points_and_only_0_0_worth_0_is_a_zero_round() -> None:
    held = score_hand(tiles("6-5", "0-0"), RuleSet())
    assert (held.points, held.went_out, held.is_zero_round) == (61, False, False)
    only_blank = score_hand(tiles("0-0"), preset("gamerules_seed001"))  # EDG-02
    assert (only_blank.points, only_blank.is_zero_round) == (0, True)


def test_impossible_hands() -> None:
    with pytest.raises(EngineError) as err:
        score_hand(tiles("5-5", "1-2"), RuleSet(), round_double=Tile(5, 5))
    assert err.value.code == "CENTRE_DOUBLE_IN_HAND"
    with pytest.raises(EngineError) as err:
        score_hand(tiles("1-2"), RuleSet(), went_out=True)
    assert err.value.code == "WENT_OUT_WITH_TILES"


@pytest.mark.parametrize(
    ("centre", "overrides", "possible"),
    [("0-0", {}, False), ("5-5", {}, True), ("5-5", {"double_blank_value": 0}, False)],
)
def test_double_blank_penalty_possible(centre: str, overrides: dict, possible: bool) -> None:
    # SCO-13: in the 0-0 round the double-blank is the centre, so nobody can hold it.
    assert double_blank_penalty_possible(rules(**overrides), t(centre)) is possible


def test_running_totals() -> None:  # SCO-12
    totals = running_totals({"A": [0, 14, 55], "B": [23, 0, 9]})
    assert totals == {"A": [0, 14, 69], "B": [23, 23, 32]}


@pytest.mark.parametrize(
    ("count", "n", "overrides", "points"),
    [
        (1, 6, {}, 50),  # the double-blank is the costliest tile at 50
        (2, 6, {}, 62),  # 0-0 + 6-6
        (2, 6, {"double_blank_value": 0}, 23),  # 6-6 + 6-5
        (3, 9, {}, 50 + 18 + 17),
    ],
)
def test_max_hand_points(count: int, n: int, overrides: dict, points: int) -> None:
    assert max_hand_points(count, n, rules(**overrides)) == points
    assert max_hand_points(1, 6, RuleSet(), excluded=[Tile(0, 0)]) == 12
