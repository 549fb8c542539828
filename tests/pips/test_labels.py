"""The photo answer's labels ("3: 6-4") are readable on a 360 px phone and never cover each
other: a tester saw them overlap on small tiles, and once kept inside their tiles they were
6 CSS px on a 4000 px photo shown 340 px wide (each label is now at least 13 CSS px there, so
small or touching tiles' labels are stacked beside each other)."""

from __future__ import annotations

import pytest

from companion.pips import read_photo
from companion.pips.synth import scene
from companion.services.hand_photo import (
    _EM_PER_CHAR,
    hit_radius,
    label_font,
    marked_photo,
)

#: The marked photo's width on a 360 px phone (CSS px) and the least readable label there.
SHOWN, READABLE = 340, 12


def boxes(photo) -> tuple[dict, list[tuple[float, float, float, float, tuple]]]:
    reading, rgb = read_photo(photo.data, 12)
    marked = marked_photo(rgb, reading)
    out = []
    for mark, tile in zip(marked["marks"], reading.tiles, strict=True):
        width = mark.font * _EM_PER_CHAR * len(f"{mark.index + 1}: {mark.text}")
        out.append((mark.label_x, mark.label_y, width, mark.font, tile.centre))
    return marked, out


@pytest.mark.parametrize(
    "tile_w",
    [45, 60, 110],  # 60: a row of touching small tiles (its 5-0 once dropped)
)
def test_labels_are_readable_at_360_px_near_their_tiles_and_apart(tile_w):
    photo = scene([(12, 11), (10, 10), (5, 0), (4, 3)], gap=1.0, tile_w=tile_w, angle=0.2)
    marked, labels = boxes(photo)
    assert len(labels) == 4
    css_px = SHOWN / marked["width"]  # one working-image pixel, shown 340 px wide
    assert 2 * marked["hit"] * css_px >= 40  # every tile's tap circle
    for x, y, w, h, (cx, cy) in labels:
        assert h * css_px >= READABLE, "a label too small to read at 360 px"
        assert w / 2 <= x <= marked["width"] - w / 2 and h / 2 <= y <= marked["height"] - h / 2
        assert abs(x - cx) <= w and abs(y - cy) <= 5 * h, "a label far from its tile"
    for i, (x1, y1, w1, h1, _) in enumerate(labels):
        for x2, y2, w2, h2, _ in labels[i + 1 :]:
            apart_x = abs(x1 - x2) >= (w1 + w2) / 2
            apart_y = abs(y1 - y2) >= (h1 + h2) / 2
            assert apart_x or apart_y, "two tiles' labels overlap"


def test_a_big_tile_keeps_the_photo_wide_label_size():
    corners = [(0.0, 0.0), (400.0, 0.0), (400.0, 200.0), (0.0, 200.0)]
    assert label_font(corners, "1: 6-4", 30.0) == 30.0
    assert label_font(corners, "1: 6-4", 300.0) < 60.0
    assert label_font(corners, "1: 6-4", 5.0, least=40.0) == 40.0  # readable first


def test_a_tap_circle_is_44_css_px_on_a_photo_shown_340_px_wide():
    assert hit_radius(1000) * 2 * SHOWN / 1000 == pytest.approx(44, abs=0.2)
