"""Small photos (640 px) the reader got wrong on 2026-12-05, from seeds outside every part of
the labelled set: two tiles lying long side to long side, whose collinear dividers were joined
into one bar twice a divider's length; and dividers blurred thicker than a divider may be,
which a firmer look shows thin; (2026-12-06) the seam along two tiles touching end to side,
taken for a divider. Each test failed on the reader before the change it names."""

from __future__ import annotations

from companion.pips import count_pips
from companion.pips.labelled import item
from companion.pips.synth import make_photo

from .conftest import PHOTOS


def tiles_of(seed: int) -> tuple[list[str], list[str]]:
    """What was read on the 640 x 480 photo of ``seed``, and what lies on it."""
    photo = make_photo(seed, 640, 480)
    return sorted(t.text for t in count_pips(photo.data).tiles), sorted(photo.tiles)


def test_two_tiles_lying_long_side_to_long_side_are_two_tiles():
    """A 5-2 against a 6-1: the seam between them bridged their dividers, which were joined
    as the two pieces of one divider split by a centre pin; with the dividers' length known,
    two pieces are joined only into a bar of about that length."""
    read, lying = tiles_of(200214)
    assert read == lying == ["2-0", "4-0", "5-2", "6-1"]


def test_dividers_blurred_thick_on_a_small_photo_are_dividers():
    """A 7-0 and a 2-0 with coloured pips, 25 px long: their dividers were too thick for a
    divider and nothing was read ("unreadable"); at the firmer threshold they are thin."""
    read, lying = tiles_of(200150)
    assert read == lying == ["2-0", "7-0"]


def test_a_double_twelve_hand_at_640_px_keeps_its_12_4():
    """Four tiles of a double-12 set at 640 px: the 12-4 was left out with nothing unsure
    (the generator deals tiles independently, hence two 5-1s)."""
    read, lying = tiles_of(200112)
    assert read == lying == ["12-0", "12-4", "5-1", "5-1"]


def test_a_seam_over_two_tiles_gives_way_to_them():
    """A 5-0 lying along a 5-1: the seam between them, as long as a divider, made a would-be
    5-0 of one half of each (sure), taken before the two real tiles, whose places it covers;
    the 5-1 lost its 5 to it and was read a sure 1-0. A would-be tile covering fewer (sure)
    would-be tiles is taken first now: each real tile covers the seam's alone."""
    scene = item("scene:217610:640", PHOTOS)
    read = {t.text: t.sure for t in count_pips(scene.data).tiles}
    assert sorted(read) == sorted(scene.tiles)
    assert read["5-1"] and read["5-0"]
