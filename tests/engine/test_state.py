"""The public round state (issue 9, finding 7): one frozen value that ``round_status`` takes."""

from __future__ import annotations

import dataclasses

import pytest

from companion.engine import Layout, RoundState, RuleSet, Tile, parse_tile, round_status


def _state(hands: dict[str, list[Tile]]) -> RoundState:
    layout = Layout.start(Tile(9, 9), 4, RuleSet().foot_toes_required)
    return RoundState(layout=layout, hands=hands, yard_count=0, rules=RuleSet(), players=2)


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
