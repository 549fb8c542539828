"""The photo answer's labels ("3: 6-4") stay inside their tile, so small or touching tiles'
labels never cover each other (a tester saw them overlap on small tiles)."""

from __future__ import annotations

import pytest

from companion.pips import read_photo
from companion.pips.synth import scene
from companion.services.hand_photo import _EM_PER_CHAR, label_font, marked_photo


def boxes(photo) -> list[tuple[float, float, float, float, tuple]]:
    reading, rgb = read_photo(photo.data, 12)
    marked = marked_photo(rgb, reading)
    out = []
    for mark, tile in zip(marked["marks"], reading.tiles, strict=True):
        width = mark.font * _EM_PER_CHAR * len(f"{mark.index + 1}: {mark.text}")
        out.append((mark.label_x, mark.label_y, width, mark.font, tile.corners))
    return out


def inside(corners, x: float, y: float) -> bool:
    """Whether (x, y) lies inside the convex polygon ``corners`` (either winding)."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(corners, [*corners[1:], corners[0]], strict=True):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        signs.add(cross > 0)
    return len(signs) == 1


@pytest.mark.parametrize(
    "tile_w",
    [45, 60, 110],  # 60: a row of touching small tiles (its 5-0 once dropped)
)
def test_labels_stay_inside_their_tiles_and_apart(tile_w):
    photo = scene([(12, 11), (10, 10), (5, 0), (4, 3)], gap=1.0, tile_w=tile_w, angle=0.2)
    labels = boxes(photo)
    assert len(labels) == 4
    for x, y, w, h, corners in labels:
        for cx, cy in (
            (x - w / 2, y - h / 2),
            (x + w / 2, y - h / 2),
            (x + w / 2, y + h / 2),
            (x - w / 2, y + h / 2),
        ):
            assert inside(corners, cx, cy), "a label sticks out of its tile"
    for i, (x1, y1, w1, h1, _) in enumerate(labels):
        for x2, y2, w2, h2, _ in labels[i + 1 :]:
            apart_x = abs(x1 - x2) >= (w1 + w2) / 2
            apart_y = abs(y1 - y2) >= (h1 + h2) / 2
            assert apart_x or apart_y, "two tiles' labels overlap"


def test_a_big_tile_keeps_the_photo_wide_label_size():
    corners = [(0.0, 0.0), (400.0, 0.0), (400.0, 200.0), (0.0, 200.0)]
    assert label_font(corners, "1: 6-4", 30.0) == 30.0
    assert label_font(corners, "1: 6-4", 300.0) < 60.0
