"""Every vocabulary has one home, typed as a StrEnum (issue 9, finding 1): the house-rule switch
values (engine/rules.py), the tie-break steps (engine/reasons.py) and the stored statuses
(companion/vocab.py). The tables that list them derive from the enums, and the strings stored in
the database and written to exports stay exactly the same."""

from __future__ import annotations

import json
from dataclasses import fields
from enum import StrEnum

from companion.api.openapi import openapi_document
from companion.engine import PRESETS, SWITCHES, RuleSet, preset
from companion.engine.reasons import DecidedAt
from companion.engine.rules import (
    TIEBREAK_STEPS,
    CenterSpokes,
    DrawnTilePlay,
    HandSizeRule,
    Starter,
    TiebreakExhausted,
)
from companion.engine.tiebreak import DECIDED_LABELS
from companion.services.exchange import shape as exchange_schema
from companion.vocab import GameStatus, RoundOutcome, RoundStatus


def _text_enum(switch_name: str) -> type[StrEnum] | None:
    hint = {f.name: f.type for f in fields(RuleSet)}[switch_name]
    for enum in StrEnum.__subclasses__():
        if enum.__name__ in str(hint) and enum.__module__ == "companion.engine.rules":
            return enum
    return None


def test_every_text_choice_of_a_switch_is_a_member_of_its_enum_and_back():
    for switch in SWITCHES:
        texts = [c.value for c in switch.choices if isinstance(c.value, str)]
        texts += [v for v in switch.extra if isinstance(v, str)]
        if not texts:
            continue
        enum = _text_enum(switch.name)
        assert enum is not None, switch.name
        assert all(type(v) is enum for v in texts), switch.name
        if enum is not Starter:  # one enum for both starter switches; each offers a subset
            assert set(texts) == set(enum), switch.name
    starters = {c.value for s in SWITCHES if "starter" in s.name for c in s.choices}
    assert set(Starter) <= starters


def test_a_stored_ruleset_reads_as_enum_members_and_writes_the_same_strings():
    stored = {
        "hand_size_rule": "custom",
        "hand_size_custom": 15,
        "center_spokes_required": "players_to_8",
        "drawn_tile_play": "may",
        "tiebreak": ["lowest_total", "lowest_single_nonzero_round"],
        "tiebreak_exhausted": "next_lowest_nonzero",
    }
    rules = RuleSet.from_dict(stored)
    assert rules.hand_size_rule is HandSizeRule.CUSTOM
    assert rules.center_spokes_required is CenterSpokes.PLAYERS_TO_8
    assert rules.drawn_tile_play is DrawnTilePlay.MAY
    assert rules.tiebreak == (DecidedAt.LOWEST_TOTAL, DecidedAt.LOWEST_SINGLE_NONZERO_ROUND)
    assert all(type(s) is DecidedAt for s in rules.tiebreak)
    assert rules.tiebreak_exhausted is TiebreakExhausted.NEXT_LOWEST_NONZERO
    again = json.loads(json.dumps(rules.to_dict()))
    assert {k: again[k] for k in stored} == stored
    assert RuleSet.from_dict(again) == rules


def test_presets_and_defaults_are_typed_too():
    assert type(RuleSet().hand_size_rule) is HandSizeRule
    for name in PRESETS:
        rules = preset(name)
        for f in fields(RuleSet):
            value = getattr(rules, f.name)
            if isinstance(value, str):
                assert isinstance(value, StrEnum), (name, f.name)


def test_a_value_outside_the_enum_is_still_refused_in_the_same_words():
    try:
        RuleSet.from_dict({"center_spokes_required": "players_to_9"})
    except Exception as exc:  # RuleError
        assert "'players_to_8'" in str(exc) and "<CenterSpokes" not in str(exc)
    else:
        raise AssertionError("players_to_9 was accepted")


def test_tie_break_steps_have_one_home():
    assert set(DECIDED_LABELS) == set(DecidedAt)
    assert set(TIEBREAK_STEPS) < set(DecidedAt) and TIEBREAK_STEPS[0] == DecidedAt.LOWEST_TOTAL
    overrides = openapi_document()["components"]["schemas"]["Ruleset"]["properties"]["overrides"][
        "properties"
    ]
    assert overrides["tiebreak"]["items"]["enum"] == ["lowest_total", *TIEBREAK_STEPS[1:]]


def test_the_import_format_allows_exactly_the_stored_statuses():
    defs = exchange_schema.schema()["$defs"]
    assert set(defs["game"]["properties"]["status"]["enum"]) == {"active", "finished"}
    assert set(GameStatus) == {"active", "finished"}
    assert set(defs["round"]["properties"]["status"]["enum"]) == {"scored", "burned"}
    assert set(RoundStatus) == {"scored", "burned"}
    assert set(defs["round"]["properties"]["outcome"]["enum"]) == {None, "out", "blocked"}
    assert set(RoundOutcome) == {"out", "blocked"}


def test_the_tile_notation_has_one_home():
    from companion.api.openapi import openapi_document as doc
    from companion.checker import forms, notation
    from companion.engine.tiles import TILE_PATTERN, TILE_TEXT

    assert notation._TILE == TILE_TEXT and forms._TILE_TOKEN.pattern == TILE_TEXT
    assert TILE_TEXT in TILE_PATTERN
    assert doc()["components"]["schemas"]["Tile"]["pattern"] == TILE_PATTERN
