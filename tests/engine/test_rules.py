"""House rules (RULES.md §9): defaults, presets, switches and impossible combinations."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from companion.engine import (
    PRESET_TITLES,
    PRESETS,
    SWITCH_BY_NAME,
    RuleError,
    RuleSet,
    preset,
    ruleset_from_spec,
    spokes_required,
)
from companion.engine.rules import reserve_size

CASES = json.loads((Path(__file__).parent.parent / "data" / "cases.json").read_text())

# RULES.md §9, the Default column.
DEFAULTS = {
    "set_size": 9,
    "hand_size_rule": "seven_each",
    "start_double_source": "held_in_hand",
    "missing_start_double": "draw_until_found",
    "first_round_starter": "holder_of_start_double",
    "later_round_starter": "holder_of_start_double",
    "starter_plays_first_spoke": False,
    "center_spokes_required": 4,
    "foot_toes_required": 3,
    "tiles_per_turn": 1,
    "must_play_if_able": True,
    "draw_when_stuck": "one",
    "drawn_tile_play": "must",
    "yard_reserve": "none",
    "empty_yard_ends_round": False,
    "double_blank_value": 50,
    "blank_half_value": 0,
    "going_out_on_double": "allowed",
    "last_tile_announcement": "off",
    "tiebreak": ("lowest_total", "most_zero_rounds", "lowest_single_nonzero_round"),
    "tiebreak_exhausted": "shared",
    "game_length": "all_rounds",
    "take_back_before_next_play": False,
}


@pytest.mark.parametrize(("switch", "value"), DEFAULTS.items())
def test_defaults(switch: str, value: object) -> None:
    assert getattr(RuleSet(), switch) == value


def test_defaults_match_the_case_file() -> None:
    standard = RuleSet().to_dict()
    for switch, value in CASES["standard_ruleset"].items():
        assert standard[switch] == value, switch


def test_presets_are_the_eight_of_rules_md_and_match_the_case_file() -> None:
    assert set(PRESETS) == {
        "standard", "wikipedia", "gamerules_seed001", "spruce_seed002_003",
        "double_chickenfoot", "fundex_chicken_coop", "nathanlong_no_draw", "hcherndon_app",
    }  # fmt: skip
    assert set(PRESET_TITLES) == set(PRESETS)
    for name, overrides in CASES["presets"].items():
        rules = preset(name)
        for switch, value in overrides.items():
            assert rules.to_dict()[switch] == value, (name, switch)


@pytest.mark.parametrize(
    ("name", "switch", "value"),
    [
        ("wikipedia", "going_out_on_double", "penalty_50"),
        ("wikipedia", "starter_plays_first_spoke", True),
        ("gamerules_seed001", "center_spokes_required", "players_to_8"),
        ("gamerules_seed001", "double_blank_value", 0),
        ("gamerules_seed001", "yard_reserve", "seed001_2p2_else1"),
        ("spruce_seed002_003", "drawn_tile_play", "may"),
        ("double_chickenfoot", "center_spokes_required", 6),
        ("fundex_chicken_coop", "blank_half_value", 25),
        ("nathanlong_no_draw", "empty_yard_ends_round", True),
        ("hcherndon_app", "missing_start_double", "retry_next_round"),
    ],
)
def test_preset_facts(name: str, switch: str, value: object) -> None:
    assert getattr(preset(name), switch) == value


def test_every_switch_is_described() -> None:
    for f in fields(RuleSet):
        if f.name != "tiebreak":
            switch = SWITCH_BY_NAME[f.name]
            assert switch.summary and switch.section
            assert switch.allows(getattr(RuleSet(), f.name)), f.name


def test_spec_layers_standard_then_preset_then_overrides() -> None:
    rules = ruleset_from_spec(
        {"preset": "double_chickenfoot", "overrides": {"center_spokes_required": 4, "set_size": 12}}
    )
    assert (rules.center_spokes_required, rules.set_size) == (4, 12)
    assert ruleset_from_spec(None) == RuleSet()
    assert ruleset_from_spec({"preset": "wikipedia"}) == preset("wikipedia")


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"preset": "house"}, "UNKNOWN_PRESET"),
        ({"preset": 3}, "UNKNOWN_PRESET"),
        ({"overrides": {"spokes": 4}}, "UNKNOWN_SWITCH"),
        ({"overrides": {"drawn_tile_play": "sometimes"}}, "BAD_SWITCH_VALUE"),
        ({"overrides": {"set_size": 10}}, "BAD_SWITCH_VALUE"),
        ({"overrides": {"starter_plays_first_spoke": 1}}, "BAD_SWITCH_VALUE"),
        ({"overrides": {"center_spokes_required": True}}, "BAD_SWITCH_VALUE"),
        ({"overrides": {"tiebreak": ["most_zero_rounds", "lowest_total"]}}, "BAD_SWITCH_VALUE"),
        ({"overrides": {"first_round_starter": "pre_deal_search"}}, "CONFLICTING_RULES"),
        ({"overrides": {"game_length": "target_total"}}, "CONFLICTING_RULES"),
        ({"overrides": ["x"]}, "BAD_RULESET"),
        ("standard", "BAD_RULESET"),
    ],
)
def test_bad_rule_sets(spec: object, code: str) -> None:
    with pytest.raises(RuleError) as err:
        ruleset_from_spec(spec)
    assert err.value.code == code
    assert err.value.message


@pytest.mark.parametrize(
    ("name", "n", "players", "chosen", "k"),
    [
        ("standard", 9, 4, None, 4),
        ("standard", 6, 2, None, 4),
        ("double_chickenfoot", 9, 4, None, 6),
        ("double_chickenfoot", 6, 4, None, 6),  # EDG-03: K = 6 on double-6 uses every 6-x tile
        ("gamerules_seed001", 9, 3, None, 3),  # one train per player
        ("gamerules_seed001", 9, 4, 8, 8),  # up to eight as the table chooses
        ("gamerules_seed001", 9, 5, 5, 5),
    ],
)
def test_spokes_required(name: str, n: int, players: int, chosen: int | None, k: int) -> None:
    assert spokes_required(preset(name), n, players, chosen) == k


@pytest.mark.parametrize(
    ("name", "n", "players", "chosen", "code"),
    [
        ("gamerules_seed001", 6, 4, 8, "TOO_MANY_SPOKES"),  # SET-12: K <= N
        ("gamerules_seed001", 9, 4, 3, "BAD_SPOKES"),  # fewer than one per player
        ("gamerules_seed001", 9, 4, 9, "BAD_SPOKES"),  # more than eight
        ("standard", 9, 4, 6, "BAD_SPOKES"),  # the rules fix K at 4
    ],
)
def test_impossible_spokes(name: str, n: int, players: int, chosen: int, code: str) -> None:
    with pytest.raises(RuleError) as err:
        spokes_required(preset(name), n, players, chosen)
    assert err.value.code == code


def test_too_many_spokes_on_a_small_set() -> None:
    rules = RuleSet().with_overrides({"center_spokes_required": 8})
    with pytest.raises(RuleError) as err:
        spokes_required(rules, 6, 4)
    assert err.value.code == "TOO_MANY_SPOKES"
    assert spokes_required(rules, 9, 4) == 8


@pytest.mark.parametrize(("players", "reserve"), [(2, 2), (3, 1), (8, 1), (None, 1)])
def test_seed001_reserve(players: int | None, reserve: int) -> None:
    assert reserve_size(preset("gamerules_seed001"), players) == reserve
    assert reserve_size(RuleSet(), players) == 0


def test_differences_and_round_trip() -> None:
    rules = preset("fundex_chicken_coop")
    assert rules.differences() == {
        "center_spokes_required": 6,
        "starter_plays_first_spoke": True,
        "blank_half_value": 25,
        "hand_size_rule": "fundex_table",
    }
    assert RuleSet.from_dict(rules.to_dict()) == rules
