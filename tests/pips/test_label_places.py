"""Where the photo page draws each tile's label (``place_labels``): a label moved off a small
tile to keep clear of the others lay over another tile's outline, where a tap went to that
tile and the player read the wrong number for it. A label now lies on its own tile or beside
it, over no other tile's outline and no other label, on crowded photos too; with truly no
room in the photo it goes below it, joined to its tile by a leader line."""

from __future__ import annotations

import math

import pytest

from companion.pips import read_photo
from companion.pips.synth import scene
from companion.services.hand_photo import (
    _EM_PER_CHAR,
    LabelPlace,
    labels_bottom,
    marked_photo,
    place_labels,
)

from .conftest import shared_photos_side_by_side

Point = tuple[float, float]
Box = tuple[float, float, float, float]

#: A label of 13 CSS px ("12: 12-11") on a photo shown 340 px wide, in CSS px: width, height.
LABEL = (13 * _EM_PER_CHAR * 9, 13 * 1.2)


def quad(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> list[Point]:
    """A tile's outline: a ``w`` by ``h`` rectangle centred on (cx, cy), turned ``angle``."""
    ca, sa = math.cos(angle), math.sin(angle)
    return [
        (cx + dx * ca - dy * sa, cy + dx * sa + dy * ca)
        for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    ]


def box_of(place: LabelPlace, size: tuple[float, float]) -> Box:
    w, h = size
    return (place.x - w / 2, place.y - h / 2, place.x + w / 2, place.y + h / 2)


def overlaps(box: Box, polygon: list[Point]) -> bool:
    """Whether a box and a convex polygon share any area (separating axes, written apart
    from the app's)."""
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    for shape in (corners, polygon):
        for i, (ax, ay) in enumerate(shape):
            bx, by = shape[(i + 1) % len(shape)]
            nx, ny = by - ay, ax - bx
            a = [nx * x + ny * y for x, y in corners]
            b = [nx * x + ny * y for x, y in polygon]
            if max(a) <= min(b) + 1e-6 or max(b) <= min(a) + 1e-6:
                return False
    return True


def distance(box: Box, polygon: list[Point]) -> float:
    """About how far a box is from a polygon: between their bounding boxes."""
    left, right = min(x for x, _ in polygon), max(x for x, _ in polygon)
    top, bottom = min(y for _, y in polygon), max(y for _, y in polygon)
    dx = max(left - box[2], box[0] - right, 0.0)
    dy = max(top - box[3], box[1] - bottom, 0.0)
    return math.hypot(dx, dy)


def assert_clear(outlines, sizes, places, width, height) -> None:
    """No label over another tile's outline or another label; inside the photo unless
    below it with a leader line; one not led is on or right next to its own tile."""
    boxes = [box_of(p, s) for p, s in zip(places, sizes, strict=True)]
    for i, box in enumerate(boxes):
        for j, outline in enumerate(outlines):
            assert i == j or not overlaps(box, outline), f"label {i + 1} over tile {j + 1}"
        for j, other in enumerate(boxes[:i]):
            apart = box[2] <= other[0] or other[2] <= box[0] or box[3] <= other[1]
            assert apart or other[3] <= box[1], f"labels {j + 1} and {i + 1} overlap"
        assert box[0] >= 0 and box[2] <= width and box[1] >= 0, f"label {i + 1} off the photo"
        assert box[3] <= height or places[i].leader, f"label {i + 1} below, without a line"
        if not places[i].leader:
            near = distance(box, outlines[i])
            assert near <= sizes[i][1], f"label {i + 1} {near:.0f} px off its tile, no line"


def grid(columns: int, rows: int, pitch: Point, tile: Point, width: float, height: float):
    """Small tiles in a grid over a photo, each turned a little differently."""
    x0 = (width - (columns - 1) * pitch[0]) / 2
    y0 = (height - (rows - 1) * pitch[1]) / 2
    return [
        quad(x0 + c * pitch[0], y0 + r * pitch[1], *tile, angle=0.3 * ((c + 2 * r) % 5) - 0.6)
        for r in range(rows)
        for c in range(columns)
    ]


@pytest.mark.parametrize(
    ("columns", "rows", "pitch", "tile"),
    [
        (4, 3, (80.0, 70.0), (34.0, 17.0)),  # 12 tiles on a 4000 px photo shown 340 px wide
        (5, 4, (64.0, 55.0), (30.0, 15.0)),  # 20
        (4, 5, (80.0, 45.0), (40.0, 20.0)),  # 20, rows close: labels must go around
        (10, 2, (30.0, 90.0), (24.0, 12.0)),  # two rows of touching small tiles
    ],
)
def test_no_label_lies_over_another_tile_or_label_on_a_crowded_photo(columns, rows, pitch, tile):
    outlines = grid(columns, rows, pitch, tile, 340, 255)
    sizes = [LABEL] * len(outlines)
    places = place_labels(outlines, sizes, 340, 255, gap=1.0)
    assert_clear(outlines, sizes, places, 340, 255)


def test_a_label_that_fits_its_tile_stays_on_its_centre():
    outlines = [quad(100, 100, 120, 60), quad(240, 100, 120, 60, angle=0.4)]
    sizes = [(50.0, 15.0), (50.0, 15.0)]
    places = place_labels(outlines, sizes, 340, 255)
    assert [(p.x, p.y, p.leader) for p in places] == [(100, 100, False), (240, 100, False)]


def test_a_small_tiles_label_goes_beside_it_on_the_free_side_not_over_its_neighbour():
    """The old stacking put the second label below its tile, over the tile under it."""
    outlines = [quad(170, 100, 30, 15), quad(170, 115, 30, 15), quad(170, 130, 30, 15)]  # touching
    sizes = [LABEL] * 3
    places = place_labels(outlines, sizes, 340, 255, gap=1.0)
    assert_clear(outlines, sizes, places, 340, 255)
    middle = box_of(places[1], LABEL)
    assert middle[2] <= 155 or middle[0] >= 185  # beside its tile: left or right of the column
    assert places[1].y == pytest.approx(115)  # level with it


def test_with_no_room_in_the_photo_labels_go_below_it_with_a_leader_line():
    """Tiles covering the photo: there is no free spot in it, so each label is drawn under the
    photo (the page draws the SVG taller), joined to its tile by a line."""
    outlines = [quad(28 + 57 * c, 14 + 29 * r, 56, 28) for c in range(6) for r in range(9)]
    sizes = [LABEL] * len(outlines)
    places = place_labels(outlines, sizes, 340, 255, gap=1.0)
    assert all(p.leader and p.y > 255 for p in places)
    assert_clear(outlines, sizes, places, 340, 10_000)


@pytest.mark.parametrize(
    ("angle", "gap", "tile_w", "count"),
    [(0.0, 1.3, 150, 12), (0.6, 1.3, 150, 12), (0.6, 1.6, 220, 12), (1.4, 1.3, 150, 12)],
)
def test_a_crowded_photos_labels_lie_over_no_other_tile(app, angle, gap, tile_w, count):
    """Rows of small tiles on a 4000 px photo, as read: every label (as wide as the widest
    pick) over no other tile's outline and no other label; the SVG is tall enough for all."""
    halves = [(6, 5), (4, 1), (3, 3), (2, 0), (5, 2), (6, 1), (4, 4), (3, 1), (5, 0), (2, 2)]
    halves += [(6, 3), (1, 0)]
    photo = scene(halves[:count], angle=angle, gap=gap, tile_w=tile_w, size=(4000, 3000))
    reading, rgb = read_photo(photo.data, 12)
    assert len(reading.tiles) >= 8
    with app.test_request_context():
        marked = marked_photo(rgb, reading, 12)
    outlines = [list(tile.corners) for tile in reading.tiles]
    sizes = [
        (m.font * _EM_PER_CHAR * len(f"{m.index + 1}: 12-12"), 1.2 * m.font)
        for m in marked["marks"]
    ]
    places = [LabelPlace(m.label_x, m.label_y, m.leader) for m in marked["marks"]]
    assert_clear(outlines, sizes, places, marked["width"], marked["drawn_height"])
    assert marked["drawn_height"] == labels_bottom(marked["marks"], marked["height"])


def test_a_leader_line_crosses_no_other_tile_where_a_spot_allows():
    """A row of touching small tiles: most labels cannot sit right beside their tiles, and a
    line from a tile to a label over its neighbours pointed at the wrong tile."""
    outlines = [quad(100 + 15 * k, 128, 14, 28) for k in range(10)]
    sizes = [LABEL] * len(outlines)
    places = place_labels(outlines, sizes, 340, 255, gap=1.0)
    assert_clear(outlines, sizes, places, 340, 255)
    assert any(p.leader for p in places)
    for i, place in enumerate(places):
        if not place.leader:
            continue
        cx = sum(x for x, _ in outlines[i]) / 4
        line = [(cx, 128.0), (place.x, place.y)]
        crossed = [j + 1 for j, o in enumerate(outlines) if j != i and overlaps_line(line, o)]
        assert not crossed, f"tile {i + 1}'s leader line crosses tiles {crossed}"


def overlaps_line(line: list[Point], polygon: list[Point]) -> bool:
    """Whether a segment crosses a convex polygon: sampled along its length."""
    (px, py), (qx, qy) = line
    for k in range(201):
        x, y = px + (qx - px) * k / 200, py + (qy - py) * k / 200
        inside = all(
            (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0
            for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
        ) or all(
            (bx - ax) * (y - ay) - (by - ay) * (x - ax) <= 0
            for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
        )
        if inside:
            return True
    return False


def test_on_a_wide_photo_a_leader_line_goes_down_out_of_it_rather_than_across_tiles(app):
    """The five shared photos side by side (5:1), shown 336 px wide: labels as tall as the
    tiles, so a spot inside the photo could only be reached across other tiles (one line
    crossed three, another ran through "1: 1-1"). Such a label now goes below the photo,
    its line crossing at most one other tile."""
    reading, rgb = read_photo(shared_photos_side_by_side(), 12)
    with app.test_request_context():
        marked = marked_photo(rgb, reading, 12)
    outlines = [list(tile.corners) for tile in reading.tiles]
    assert len(outlines) >= 8
    for m in marked["marks"]:
        if m.leader:
            line = [(m.centre_x, m.centre_y), (m.label_x, m.label_y)]
            crossed = [
                j + 1 for j, o in enumerate(outlines) if j != m.index and overlaps_line(line, o)
            ]
            assert len(crossed) <= 1, f"tile {m.index + 1}'s leader line crosses tiles {crossed}"
