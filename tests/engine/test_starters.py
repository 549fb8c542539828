"""Who starts a round and who lays the first spoke (RULES.md §3.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from companion.engine import (
    RoundStart,
    RuleSet,
    StartInfo,
    Tile,
    next_clockwise,
    preset,
    start_of_round,
)
from companion.engine.errors import RuleError
from tests.engine.util import t

SEATS = ("P1", "P2", "P3", "P4")


def start(
    rules: RuleSet,
    double: int,
    number: int,
    *,
    seats: Sequence[str] = (),
    holder: str | None = None,
    draws: Mapping[str, Tile] | None = None,
    found_by: str | None = None,
    round1_starter: str | None = None,
) -> StartInfo:
    """start_of_round of the state these make (the tests' cases as before)."""
    state = RoundStart(
        rules=rules,
        number=number,
        start_double=double,
        seats=seats,
        holders={double: holder} if holder else {},
        draws=draws or {},
        found_by=found_by,
        round1_starter=round1_starter,
    )
    return start_of_round(state)


def rules(**overrides: object) -> RuleSet:
    return RuleSet().with_overrides(overrides)


@pytest.mark.parametrize(
    ("holder", "plays_first", "first"),
    [("P3", False, "P4"), ("P4", False, "P1"), ("P3", True, "P3")],
)
def test_holder_of_the_double_starts(holder: str, plays_first: bool, first: str) -> None:
    info = start(rules(starter_plays_first_spoke=plays_first), 8, 2, seats=SEATS, holder=holder)
    assert (info.starter, info.first_spoke_by) == (holder, first)  # STA-01
    assert info.rule_name == "later_round_starter"
    assert not info.draw_tiles_returned and not info.set_aside_before_deal


def test_the_player_who_drew_a_missing_double_starts() -> None:
    info = start(RuleSet(), 8, 2, seats=SEATS, found_by="P2")
    assert (info.starter, info.first_spoke_by) == ("P2", "P3")


def test_draw_highest_tile_by_pip_total() -> None:
    r = rules(first_round_starter="draw_highest_tile")
    info = start(r, 9, 1, seats=SEATS, draws={"P1": t("6-5"), "P2": t("9-8"), "P3": t("4-4")})
    assert (info.starter, info.first_spoke_by, info.tied) == ("P2", "P3", ())
    assert info.draw_tiles_returned and info.rule_name == "first_round_starter"
    tie = start(r, 9, 1, seats=SEATS, draws={"P1": t("9-2"), "P2": t("6-5"), "P3": t("1-1")})
    assert tie.starter is None and tie.tied == ("P1", "P2")


@pytest.mark.parametrize(("round_number", "starter"), [(2, "P3"), (3, "P4"), (4, "P1"), (6, "P3")])
def test_rotate_left(round_number: int, starter: str) -> None:
    info = start(preset("nathanlong_no_draw"), 9, round_number, seats=SEATS, round1_starter="P2")
    assert info.starter == starter  # STA-04: round 3 -> P4
    assert info.first_spoke_by == next_clockwise(SEATS, starter)


def test_pre_deal_search() -> None:
    info = start(preset("gamerules_seed001"), 9, 1, seats=SEATS, found_by="P3")
    assert (info.starter, info.first_spoke_by) == ("P3", "P3")  # S001: finder lays first train
    assert info.set_aside_before_deal and info.draw_tiles_returned


def test_a_set_aside_double_has_no_holder_so_later_rounds_rotate() -> None:
    info = start(preset("wikipedia"), 8, 2, seats=SEATS, round1_starter="P4")
    assert (info.starter, info.first_spoke_by) == ("P1", "P1")  # S000: starter lays first spoke
    assert info.set_aside_before_deal


def test_next_clockwise() -> None:
    assert next_clockwise(SEATS, "P4") == "P1"
    assert next_clockwise(SEATS, "P1", 3) == "P4"
    with pytest.raises(RuleError) as err:
        next_clockwise(SEATS, "P9")
    assert err.value.code == "UNKNOWN_PLAYER"
