"""The real photos (tests/data/photos, labels.json): what is read is right, face-down tiles
count nothing, and the counts match the labels on most photos (docs/PIPS.md gives the figures).
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.pips import count_pips

from .conftest import real_photos

PHOTOS = real_photos()


def normal(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


@pytest.mark.parametrize(("name", "label"), PHOTOS, ids=[n for n, _ in PHOTOS])
def test_no_tile_is_misread(name, label, photo_bytes):
    """Every tile read is one of the photo's face-up tiles (face-down ones give nothing)."""
    reading = count_pips(photo_bytes(name))
    read = Counter(t.text for t in reading.read_tiles)
    assert read <= Counter(normal(t) for t in label["tiles"]), read
    assert reading.tiles, "no tile found"


def test_most_photos_are_counted_exactly(photo_bytes):
    exact = [name for name, label in PHOTOS if count_pips(photo_bytes(name)).total == label["pips"]]
    assert len(exact) >= len(PHOTOS) - 1, exact


def test_coloured_pips_are_counted(photo_bytes):
    reading = count_pips(photo_bytes("valid_4.jpg"))  # red and blue pips
    assert [t.text for t in reading.tiles] == ["3-1"]
    assert reading.total == 4
    assert reading.confidence >= 0.8


def test_blank_half_is_a_half_without_pips(photo_bytes):
    reading = count_pips(photo_bytes("valid_6.jpg"))
    assert [t.halves for t in reading.tiles] in ([(5, 0)], [(0, 5)])


def test_every_counted_pip_is_marked_inside_its_tile(photo_bytes):
    import cv2
    import numpy as np

    reading = count_pips(photo_bytes("valid_2.jpg"))
    for tile in reading.read_tiles:
        assert len(tile.pips) == sum(tile.halves)
        outline = np.array(tile.corners, np.float32)
        for pip in tile.pips:
            assert cv2.pointPolygonTest(outline, (pip.x, pip.y), False) >= 0
