"""The public round state (issue 9, finding 7; typed per moment in issue 23): frozen values
that ``next_round`` (RoundState), ``start_of_round`` (RoundStart, its number required) and
``round_status`` (RoundInPlay, its layout, hands and yard required) take."""

from __future__ import annotations

import dataclasses

import pytest

from companion.engine import (
    Layout,
    RoundInPlay,
    RoundStart,
    RoundState,
    RuleSet,
    Tile,
    next_round,
    parse_tile,
    round_status,
    start_of_round,
)


def _state(hands: dict[str, list[Tile]]) -> RoundInPlay:
    layout = Layout.start(Tile(9, 9), 4, RuleSet().foot_toes_required)
    return RoundInPlay(layout=layout, hands=hands, yard_count=0, rules=RuleSet(), players=2)


def test_the_state_is_frozen_and_keeps_its_hands() -> None:
    hands = {"Ann": [parse_tile("3-4")], "Bob": [parse_tile("5-6")]}
    state = _state(hands)
    hands["Ann"].append(parse_tile("1-2"))  # the caller's lists do not change the state
    assert state.hands["Ann"] == (parse_tile("3-4"),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.yard_count = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.hands["Cy"] = ()  # type: ignore[index]


def test_round_status_takes_the_state() -> None:
    status = round_status(_state({"Ann": [], "Bob": [parse_tile("5-6")]}))
    assert status.over and status.reason == "OUT" and status.went_out == "Ann"
    assert status.scores["Bob"].points == 11


def test_next_round_and_start_of_round_take_the_state() -> None:
    """The same value answers before the deal, at the start and in play (issue 9, item 7)."""
    rules = RuleSet().with_overrides({"missing_start_double": "skip_to_next_lower"})
    before = RoundState(rules=rules, number=2, seats=("P1", "P2", "P3"), played=[9])
    dealt = dataclasses.replace(before, holders={8: None, 7: "P3"})
    nxt = next_round(dealt)
    assert (nxt.start_double, nxt.burned) == (7, (8,))  # 8-8 held by nobody: burned
    info = start_of_round(dealt.at_start(start_double=nxt.start_double))
    assert (info.starter, info.first_spoke_by) == ("P3", "P1")  # the holder of 7-7, then left


def test_the_double_defaults_to_the_layout_then_to_the_round_number() -> None:
    assert RoundState(rules=RuleSet(), number=3).double == 7  # double-9, round 3: 7-7
    assert RoundState(rules=RuleSet(), number=3, set_size=12).double == 10
    before = RoundState(rules=RuleSet(), number=3)
    on_table = before.in_play(layout=Layout.start(Tile(5, 5)), hands={}, yard_count=0)
    assert on_table.double == 5
    assert dataclasses.replace(on_table, start_double=4).double == 4


def test_the_state_freezes_every_part_it_is_given() -> None:
    played, holders, seats = [9], {8: "P1"}, ["P1", "P2"]
    state = RoundState(rules=RuleSet(), played=played, holders=holders, seats=seats)
    played.append(8)
    holders[7] = None
    seats.append("P3")
    assert (state.played, dict(state.holders), state.seats) == ((9,), {8: "P1"}, ("P1", "P2"))
    assert state.at_start().seats == ("P1", "P2")


def test_each_moment_requires_what_its_verb_needs() -> None:
    """A round in play without its layout, hands or yard, or a round's start without its
    number, cannot be built (it used to be a ValueError at the question, or a silent round 1)."""
    hands = {"Ann": [parse_tile("1-2")]}
    with pytest.raises(TypeError, match="layout"):
        RoundInPlay(rules=RuleSet(), hands=hands, yard_count=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="yard_count"):
        RoundInPlay(rules=RuleSet(), hands=hands, layout=Layout.start(Tile(9, 9)))  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="number"):
        RoundStart(rules=RuleSet(), start_double=9)  # type: ignore[call-arg]
    assert RoundStart(rules=RuleSet(), number=1).double == 9
