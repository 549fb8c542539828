"""The text-entry parser: typed positions and pasted JSON to RULES.md §0 layouts, with clear
messages for everything it cannot read."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.checker.notation import (
    NotationError,
    format_layout,
    parse_position,
    parse_text,
    split_items,
)
from companion.engine import DominoSet

NINE = DominoSet(9)
SPOKES = "9-5 on C, 9-3 on C, 9-2 on C, 9-1 on C"


def parse(text: str, k: int = 4, center: str | None = "9-9"):
    return parse_position(text, NINE, k, default_center=center)


def error(text: str, k: int = 4, center: str | None = "9-9") -> NotationError:
    with pytest.raises(NotationError) as info:
        parse(text, k, center)
    return info.value


def test_split_items_on_semicolons_commas_and_lines():
    assert split_items("9-9 centre; 9-5 on C,\n5-5 on that ,, ") == [
        "9-9 centre",
        "9-5 on C",
        "5-5 on that",
    ]


def test_the_briefs_example_with_two_spokes_required():
    pos = parse("9-9 centre; 9-5 on C, 9-4 on C, 5-5 on S1, 5-2 on D1", k=2)
    assert pos.spec == {
        "center": "9-9",
        "tiles": [
            {"id": "S1", "on": "C", "tile": "9-5"},
            {"id": "S2", "on": "C", "tile": "9-4"},
            {"id": "D1", "on": "S1", "tile": "5-5"},
            {"id": "T1", "on": "D1", "tile": "5-2"},
        ],
    }
    assert pos.layout.open_foot == "D1"


def test_that_and_it_mean_the_tile_laid_just_before():
    pos = parse(f"{SPOKES}, 5-5 on S1, 5-4 on that, 5-6 on D1, 4-8 on T1, 5-0 on D1, 0-7 on it")
    tiles = {t["id"]: t for t in pos.spec["tiles"]}
    assert tiles["T1"] == {"id": "T1", "on": "D1", "tile": "5-4"}
    assert tiles["T5"] == {"id": "T5", "on": "T4", "tile": "0-7"}


def test_tiles_are_turned_touching_end_first():
    pos = parse("5-9 on C, 3-9 on c, 9-2 on C, 9-1 on C, 6-5 on S1")
    assert [t["tile"] for t in pos.spec["tiles"]] == ["9-5", "9-3", "9-2", "9-1", "5-6"]


def test_centre_can_be_typed_and_defaults_to_the_rounds_double():
    assert parse("centre 8-8; 8-1 on C").spec["center"] == "8-8"
    assert parse("8-8 center, 1-8 on C").spec["tiles"][0]["tile"] == "8-1"
    assert parse("", center="7-7").spec == {"center": "7-7", "tiles": []}


def test_explicit_ids_are_kept_and_round_trip():
    text = "9-9 centre; A: 9-5 on C; S2: 9-4 on C; 9-3 on C"
    pos = parse(text)
    assert [t["id"] for t in pos.spec["tiles"]] == ["A", "S2", "S1"]
    assert parse(format_layout(pos.spec)).spec == pos.spec


def test_format_layout_leaves_out_ids_the_parser_assigns():
    pos = parse(f"{SPOKES}, 5-5 on S1, 5-4 on D1")
    assert format_layout(pos.spec) == (
        "9-9 centre; 9-5 on C; 9-3 on C; 9-2 on C; 9-1 on C; 5-5 on S1; 5-4 on D1"
    )


def test_garbage_gets_a_message_naming_the_item():
    err = error("9-5 on C, the cat sat on the mat")
    assert err.code == "BAD_NOTATION"
    assert err.item == 1 and err.where == "item 2"
    assert '"the cat sat on the mat"' in err.message and "9-5 on C" in err.message


def test_centre_after_tiles_is_refused():
    err = error("9-5 on C; 8-8 centre")
    assert err.code == "BAD_NOTATION" and "centre double first" in err.message


def test_no_centre_known():
    err = error("9-5 on C", center=None)
    assert err.code == "NO_CENTRE"


def test_tile_outside_the_set():
    err = error("9-5 on C; 9-12 on C")
    assert err.code == "TILE_OUTSIDE_SET"
    assert err.item == 1 and err.tile_id == "S2"
    assert "double-9" in err.message


def test_duplicate_tile():
    err = error("9-5 on C; 5-9 on C")
    assert err.code == "DUPLICATE_TILE"
    assert err.item == 1 and err.tile_id == "S2"


def test_the_centre_double_cannot_be_laid_again():
    err = error("9-9 centre; 9-9 on C")
    assert err.code == "DUPLICATE_TILE"
    assert err.item == 1 and "already on the table" in err.message


def test_unknown_id():
    err = error("9-5 on C; 5-4 on S7")
    assert err.code == "UNKNOWN_ID"
    assert err.item == 1 and "S7" in err.message


def test_that_with_nothing_before():
    err = error("9-5 on that")
    assert err.code == "NOTHING_BEFORE" and err.item == 0


def test_a_tile_that_does_not_match_its_target():
    err = error(f"{SPOKES}, 4-4 on S1")
    assert err.code == "NO_MATCH"
    assert err.item == 4 and err.tile_id == "D1"


def test_impossible_position_names_the_first_impossible_placement():
    err = error("9-9 centre; 9-5 on C; 5-5 on S1")
    assert err.code == "SPOKES_INCOMPLETE"
    assert err.item == 2 and err.tile_id == "D1"


def test_a_second_open_foot_is_impossible():
    err = error(f"{SPOKES}, 5-5 on S1, 3-3 on S2")
    assert err.code == "FOOT_INCOMPLETE" and err.tile_id == "D2"


def test_pasted_layout_json():
    layout = {"center": "9-9", "tiles": [{"id": "S1", "on": "C", "tile": "9-5"}]}
    pos = parse(json.dumps(layout))
    assert pos.spec == layout and pos.question is None


def test_pasted_question_json():
    q = {
        "category": "placement",
        "input": {"layout": {"center": "6-6", "tiles": []}, "move": {"tile": "6-1", "on": "C"}},
    }
    pos = parse_position(json.dumps(q), DominoSet(6), 4)
    assert pos.question == q and pos.spec["center"] == "6-6"


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"a": 1}', '{"center": NaN}'])
def test_pasted_json_that_is_not_a_position(text):
    err = error(text)
    assert err.code == "BAD_JSON"
    assert "JSON" in err.message


def test_pasted_json_with_an_impossible_layout():
    layout = {"center": "9-9", "tiles": [{"id": "X", "on": "Q", "tile": "9-5"}]}
    err = error(json.dumps(layout))
    assert err.code == "UNKNOWN_ID" and err.tile_id == "X"


def test_parse_text_alone_does_not_validate():
    spec, items = parse_text("9-9 centre; 9-5 on C; 5-5 on S1")
    assert len(items) == 3 and spec["tiles"][1]["id"] == "D1"


def test_too_many_items():
    err = error("; ".join(["9-5 on C"] * 201))
    assert err.code == "TOO_LONG"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80) | st.from_regex(r"(\d{1,2}-\d{1,2} on [A-Z]\d?[;,] ?){0,6}"))
def test_any_text_is_a_position_or_a_notation_error(text):
    try:
        pos = parse(text)
    except NotationError as exc:
        assert exc.code and exc.message
    else:
        assert parse(format_layout(pos.spec)).spec == pos.spec
