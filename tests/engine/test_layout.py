"""The layout tree (RULES.md §0, §5): replay, validation errors and open ends."""

from __future__ import annotations

import pytest

from companion.engine import CENTER, DominoSet, Layout, LayoutError, OpenEnd, TileError, replay
from tests.engine.util import CROSS, lay, layout_json, t

FOOT = (*CROSS, ("D1", "S1", "5-5"))


def test_open_ends_through_the_phases() -> None:
    start = lay("9-9")
    assert start.open_ends() == [OpenEnd("C", 9, 4, "hub")]
    assert start.playable_targets() == [OpenEnd("C", 9, 4, "hub")]
    cross = lay("9-9", *CROSS)
    assert cross.hub_complete and cross.spokes == 4
    assert [(e.on, e.number, e.free, e.kind) for e in cross.open_ends()] == [
        ("S1", 5, 1, "end"), ("S2", 3, 1, "end"), ("S3", 7, 1, "end"), ("S4", 0, 1, "end"),
    ]  # fmt: skip
    foot = lay("9-9", *FOOT)
    assert foot.open_foot == "D1"
    assert foot.playable_targets() == [OpenEnd("D1", 5, 3, "foot")]  # only toes on the foot
    done = lay("9-9", *FOOT, ("T1", "D1", "5-2"), ("T2", "D1", "5-8"), ("T3", "D1", "5-6"))
    assert done.open_foot is None
    assert {e.on for e in done.playable_targets()} == {"S2", "S3", "S4", "T1", "T2", "T3"}


def test_to_json_round_trips_and_keeps_touching_end_first() -> None:
    spec = layout_json("9-9", *FOOT, ("T1", "D1", "5-2"))
    layout = replay(spec, DominoSet(9), 4)
    assert layout.to_json() == spec
    assert layout.get("S1").text() == "9-5" and layout.get("S1").outer == 5
    assert layout.get("D1").is_double and layout.kind("D1") == "foot"
    assert layout.foot_of("T1") == "D1" and layout.foot_of("S1") is None
    assert t("9-9") in layout.used and len(layout.used) == len(layout) + 1


def test_fresh_ids() -> None:
    layout = lay("9-9", *FOOT)
    assert layout.next_id(t("5-2")) == "T1"
    assert layout.next_id(t("2-2")) == "D2"


def test_the_centre_must_be_a_double() -> None:
    with pytest.raises(LayoutError) as err:
        Layout.start(t("9-5"))
    assert err.value.code == "BAD_CENTER"


# Each replay error with the id of the first impossible placement (RULES.md §0).
REPLAY_ERRORS = [
    ("NO_MATCH", "S2", [("S1", "C", "9-5"), ("S2", "C", "3-9")]),  # touching end written second
    ("NO_MATCH", "X1", [*CROSS, ("X1", "S1", "4-2")]),
    ("CENTER_FULL", "S5", [*CROSS, ("S5", "C", "9-1")]),
    ("END_COVERED", "X2", [*CROSS, ("X1", "S1", "5-1"), ("X2", "S1", "5-2")]),
    (
        "FOOT_FULL",
        "T4",
        [*FOOT, ("T1", "D1", "5-1"), ("T2", "D1", "5-2"), ("T3", "D1", "5-3"), ("T4", "D1", "5-4")],
    ),
    ("UNKNOWN_ID", "S2", [("S2", "S9", "9-3"), ("S9", "C", "9-5")]),  # parent listed later
    ("DUPLICATE_ID", "S1", [("S1", "C", "9-5"), ("S1", "C", "9-3")]),
    ("SPOKES_INCOMPLETE", "X1", [("S1", "C", "9-5"), ("S2", "C", "9-3"), ("X1", "S1", "5-1")]),
    # A second foot while the first still misses toes.
    ("FOOT_INCOMPLETE", "D2", [*FOOT, ("D2", "S2", "3-3")]),
    # A tile extending a toe of a foot that is still open.
    ("FOOT_INCOMPLETE", "X1", [*FOOT, ("T1", "D1", "5-1"), ("X1", "T1", "1-2")]),
]


@pytest.mark.parametrize(("code", "bad_id", "tiles"), REPLAY_ERRORS)
def test_replay_names_the_first_impossible_placement(
    code: str, bad_id: str, tiles: list[tuple[str, str, str]]
) -> None:
    with pytest.raises(LayoutError) as err:
        replay(layout_json("9-9", *tiles), DominoSet(9), 4)
    assert err.value.code == code
    assert f"({bad_id})" in err.value.where
    assert err.value.where.startswith("input.layout")
    assert err.value.message


@pytest.mark.parametrize(
    ("code", "tiles", "n"),
    [
        ("DUPLICATE_TILE", [("S1", "C", "9-5"), ("S2", "C", "9-5")], 9),
        ("DUPLICATE_TILE", [("S1", "C", "9-9")], 9),  # the centre is already on the table
        ("TILE_OUTSIDE_SET", [("S1", "C", "6-7")], 6),
        ("BAD_TILE", [("S1", "C", "six-five")], 9),
    ],
)
def test_replay_tile_errors(code: str, tiles: list, n: int) -> None:
    centre = f"{n}-{n}"
    with pytest.raises(TileError) as err:
        replay(layout_json(centre, *tiles), DominoSet(n), 4)
    assert err.value.code == code
    assert "S" in err.value.where


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ([], "BAD_LAYOUT"),
        ({"center": "9-9", "tiles": {}}, "BAD_LAYOUT"),
        ({"center": "9-9", "tiles": ["9-5"]}, "BAD_LAYOUT"),
        ({"center": "9-9", "tiles": [{"id": "C", "on": "C", "tile": "9-5"}]}, "BAD_ID"),
        ({"center": "9-9", "tiles": [{"id": "1x", "on": "C", "tile": "9-5"}]}, "BAD_ID"),
        ({"center": "9-9", "tiles": [{"on": "C", "tile": "9-5"}]}, "MISSING_ID"),
        ({"center": "9-5", "tiles": []}, "BAD_CENTER"),
    ],
)
def test_malformed_layouts(spec: object, code: str) -> None:
    with pytest.raises(LayoutError) as err:
        replay(spec, DominoSet(9), 4)
    assert err.value.code == code


def test_a_tile_elsewhere_is_fine_after_the_foot_in_list_order() -> None:
    # The list is parent-before-child, not play order: X1 could have been laid before D1.
    layout = lay("9-9", *FOOT, ("X1", "S2", "3-1"))
    assert layout.open_foot == "D1"


def test_a_completed_foot_can_be_extended_and_a_new_foot_opened() -> None:
    layout = lay(
        "9-9", *FOOT, ("T1", "D1", "5-2"), ("T2", "D1", "5-8"), ("T3", "D1", "5-6"),
        ("D2", "T1", "2-2"),
    )  # fmt: skip
    assert layout.open_foot == "D2"


def test_replay_refuses_a_tile_also_held_elsewhere() -> None:
    with pytest.raises(TileError) as err:
        replay(layout_json("9-9", *CROSS), DominoSet(9), 4, extra_used=[t("5-9")])
    assert err.value.code == "DUPLICATE_TILE"


def test_attach_checks_geometry() -> None:
    layout = lay("9-9", *CROSS)
    with pytest.raises(LayoutError) as err:
        layout.attach(t("4-4"), "S1")
    assert err.value.code == "NO_MATCH"
    with pytest.raises(LayoutError) as err:
        layout.attach(t("9-1"), CENTER)
    assert err.value.code == "CENTER_FULL"
    with pytest.raises(LayoutError) as err:
        layout.attach(t("5-1"), "Q7")
    assert err.value.code == "UNKNOWN_ID"
    grown = layout.attach(t("1-5"), "S1")
    assert grown.get("T1").text() == "5-1" and len(layout) == 4  # the old layout is unchanged


def test_a_duplicate_names_where_the_tile_already_lies():
    from companion.engine import DominoSet, replay
    from companion.engine.errors import TileError

    spec = {
        "center": "9-9",
        "tiles": [{"id": "S1", "on": "C", "tile": "9-5"}, {"id": "S2", "on": "C", "tile": "9-5"}],
    }
    with pytest.raises(TileError) as info:
        replay(spec, DominoSet(9), 4)
    assert info.value.code == "DUPLICATE_TILE"
    assert "as S1" in info.value.message and info.value.where.endswith("(S2)")
