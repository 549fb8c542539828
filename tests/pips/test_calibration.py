"""The reader's confidence is a share of tiles read right (issue 24: "of the tiles it calls 90 %
sure, about 90 % are right"), fitted by benchmarks/pips_calibrate.py on every part of the
labelled set but the newest, which stays held out to judge it (docs/PIPS.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from companion.pips import count_pips
from companion.pips.calibration import BANDS, TABLE, Kind, confidence, highest_unsure, kind_of
from companion.pips.reading import SURE

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT / "tests" / "data" / "photos"


def test_the_table_was_not_fitted_on_the_newest_held_out_part():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from pips_split import LATER_PARTS
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    newest = list(LATER_PARTS.values())[-1]
    fitted_on = json.loads(TABLE.read_text(encoding="utf-8"))["fitted_on"]
    assert newest.name not in fitted_on
    assert "dev" in fitted_on


@pytest.mark.parametrize("kind", list(Kind))
def test_each_band_gives_about_its_own_share_right_and_never_falls_as_regularity_rises(kind):
    bands = BANDS[kind]
    shares = [band.share for band in bands]
    assert shares == sorted(shares)
    for band in bands:
        assert band.tiles > 0 and 0 <= band.right <= band.tiles
        # the share is the band's own share, only pulled towards one half by a few tiles
        assert abs(band.share - band.right / band.tiles) <= 2 / (band.tiles + 4) + 1e-3


def test_a_double_blank_is_never_sure_however_often_it_was_right():
    """A 0-0 has no pip to check, and each is worth 50 points under the default house rules:
    seen too rarely to be called 99 % sure, it always waits for a tap."""
    assert confidence(1.0, (0, 0)) < SURE
    assert kind_of((0, 0)) is Kind.DOUBLE_BLANK and kind_of((6, 0)) is Kind.PIPS


def test_a_tile_read_is_given_its_bands_share_not_its_raw_regularity():
    reading = count_pips((PHOTOS / "valid_2.jpg").read_bytes())
    assert reading.read_tiles
    for tile in reading.read_tiles:
        assert tile.halves is not None
        assert tile.confidence == confidence(tile.regularity, tile.halves)
        assert tile.sure == (tile.confidence >= SURE)


@pytest.mark.parametrize("halves", [(2, 0), (0, 0)])
def test_a_tile_read_by_leaving_a_mark_out_gets_the_highest_share_below_sure(halves):
    capped = highest_unsure(halves, SURE)
    assert capped < SURE
    assert capped in [band.share for band in BANDS[kind_of(halves)]]
