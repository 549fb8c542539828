"""Drawing coordinates: the table's shape (spokes, crosswise feet, fanned toes, open ends)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.checker.drawing import LENGTH, MARKER_R, draw_layout
from companion.checker.notation import parse_position
from companion.engine import DominoSet, Tile

NINE = DominoSet(9)
SPOKES = "9-5 on C, 9-4 on C, 9-3 on C, 9-2 on C"


def layout(text: str, k: int = 4):
    return parse_position(text, NINE, k, default_center="9-9").layout


def by_id(drawing):
    return {t.id: t for t in [*drawing.tiles, *drawing.overlay]}


def test_spokes_leave_the_centre_at_even_angles_first_straight_up():
    d = draw_layout(layout(SPOKES))
    tiles = by_id(d)
    assert [round(tiles[s].angle) for s in ("S1", "S2", "S3", "S4")] == [-90, 0, 90, 180]
    assert tiles["S1"].y < 0 and abs(tiles["S1"].x) < 1e-9  # straight up
    # the touching end (the 9) is nearer the centre than the open end
    touching, outer = tiles["S1"].labels
    assert touching.number == 9 and outer.number == 5
    assert math.hypot(touching.x, touching.y) < math.hypot(outer.x, outer.y)


def test_six_spokes_for_a_double_chicken_foot():
    d = draw_layout(layout("", k=6))
    assert len(d.ends) == 6
    angles = sorted(round(math.degrees(math.atan2(e.y, e.x))) for e in d.ends)
    assert angles == [-150, -90, -30, 30, 90, 150]


def test_a_foot_lies_crosswise_and_its_toes_fan_out():
    d = draw_layout(layout(f"{SPOKES}, 5-5 on S1, 5-1 on D1"))
    tiles = by_id(d)
    assert tiles["D1"].kind == "foot"
    assert round(tiles["D1"].angle - tiles["S1"].angle) == 90
    toe_markers = [e for e in d.ends if e.on == "D1"]
    assert len(toe_markers) == 2 and all(e.playable for e in toe_markers)
    # the toes point away from the centre, spread left and right of the spoke's line
    assert tiles["T1"].y < tiles["D1"].y
    assert len({round(e.x) for e in toe_markers} | {round(tiles["T1"].x)}) == 3
    # while the foot is open, the other ends are drawn but not playable
    assert not any(e.playable for e in d.ends if e.on != "D1")


def test_open_ends_show_the_number_to_match():
    d = draw_layout(layout(f"{SPOKES}, 5-6 on S1"))
    numbers = {e.on: e.number for e in d.ends}
    assert numbers == {"S2": 4, "S3": 3, "S4": 2, "T1": 6}


def test_the_move_asked_about_is_drawn_on_top_in_its_colour():
    lay = layout(SPOKES)
    d = draw_layout(lay, candidate=(Tile(6, 4), "S2", False), highlight=["S2"])
    ghost = d.overlay[0]
    assert ghost.state == "illegal" and ghost.labels[0].number == 4  # turned to touch the 4
    assert [e.on for e in d.ends if e.highlight] == ["S2"]


def test_a_refused_placement_is_drawn_where_it_was_claimed():
    d = draw_layout(layout("9-5 on C"), refused=("D1", "S1", "5-5"))
    assert d.overlay[0].state == "refused" and d.overlay[0].kind == "foot"


def test_viewbox_holds_every_tile_and_marker():
    d = draw_layout(layout(f"{SPOKES}, 5-5 on S1, 5-1 on D1, 5-6 on D1, 5-0 on D1, 1-1 on T1"))
    x0, y0, w, h = d.viewbox
    half = math.hypot(LENGTH, LENGTH / 2) / 2
    for t in d.tiles:
        assert x0 <= t.x - half and t.x + half <= x0 + w
        assert y0 <= t.y - half and t.y + half <= y0 + h
    for e in d.ends:
        assert x0 <= e.x - MARKER_R and e.y + MARKER_R <= y0 + h


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_legal_game_position_can_be_drawn(data):
    """Random positions reached by legal moves draw without error, one shape per tile."""
    from companion.engine import legal_moves

    lay = layout("")
    for _ in range(data.draw(st.integers(0, 30))):
        moves = legal_moves(lay, [t for t in NINE.tiles if t not in lay.used])
        if not moves:
            break
        tile, on = data.draw(st.sampled_from(moves))
        lay = lay.attach(tile, on)
    d = draw_layout(lay)
    assert len(d.tiles) == len(lay) + 1
    assert d.viewbox[2] > 0 and d.viewbox[3] > 0


def _random_layout(seed: int, tiles: int, size: int):
    import random

    from companion.engine import Layout, legal_moves

    rng, dominoes = random.Random(seed), DominoSet(size)
    lay = Layout.start(dominoes.parse(f"{size}-{size}"))
    while len(lay) < tiles:
        moves = legal_moves(lay, [t for t in dominoes.tiles if t not in lay.used])
        if not moves:
            break
        tile, on = rng.choice(moves)
        lay = lay.attach(tile, on)
    return lay


@given(st.integers(0, 10_000), st.sampled_from([(60, 12), (40, 9), (120, 15)]))
@settings(max_examples=25, deadline=None)
def test_no_two_tiles_overlap_on_deep_layouts(seed, shape):
    from companion.checker.drawing import overlapping

    tiles, size = shape
    assert overlapping(draw_layout(_random_layout(seed, tiles, size))) == []


def test_the_overlap_check_can_fail():
    from companion.checker.drawing import TileShape, _overlap

    labels = ()
    a = TileShape("A", "1-2", 0, 0, 0, labels)  # type: ignore[arg-type]
    assert _overlap(a, TileShape("B", "1-2", 10, 5, 90, labels))  # type: ignore[arg-type]
    assert not _overlap(a, TileShape("B", "1-2", 41, 0, 0, labels))  # type: ignore[arg-type]


def test_a_deep_layout_keeps_its_scale_and_grows_instead():
    from companion.checker.drawing import SCALE

    small = draw_layout(layout(SPOKES))
    deep = draw_layout(_random_layout(3, 60, 12))
    # a tile is LENGTH x SCALE pixels whatever the layout: 50 px, readable on a 360 px phone
    assert LENGTH * SCALE >= 50
    assert small.size_px[0] <= 340  # fits a 360 px phone's card
    assert deep.size_px[0] > small.size_px[0] and deep.size_px[1] > small.size_px[1]
