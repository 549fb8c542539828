"""How sure a tile read is, as a share of tiles read right.

The reader scores each tile's pips for regularity (:func:`companion.pips.detect`: symmetric
about the half's middle, one size): 0-1, but not a probability. Measured on the labelled set,
tiles scored 0.8 were right about as often as tiles scored 1.0, while a 0-0 (nothing to check
but its divider) was wrong far more often than its score said. This module turns the score into
the share of tiles with that score and kind that were read right on the fitting parts, so that
of the tiles called 90 % sure about 90 % are right (issue 24).

The table is written by ``benchmarks/pips_calibrate.py`` (``--write``) from the parts it was
fitted on, and judged there on a part it was not fitted on (docs/PIPS.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

#: The fitted table (``benchmarks/pips_calibrate.py --write``).
TABLE = Path(__file__).with_name("calibration.json")


class Kind(StrEnum):
    """Tiles whose reads are right at different rates for the same regularity."""

    DOUBLE_BLANK = "double_blank"  # no pip: the score cannot tell a 0-0 from grain
    PIPS = "pips"


@dataclass(frozen=True)
class Band:
    """Tiles of one kind scored ``low`` or more (up to the next band): ``right`` of the
    ``tiles`` fitted on were read right, and ``share`` (0-1) is the confidence given."""

    low: float
    share: float
    right: int
    tiles: int


def kind_of(halves: tuple[int, int]) -> Kind:
    """The kind of a tile read as ``halves``."""
    return Kind.DOUBLE_BLANK if halves == (0, 0) else Kind.PIPS


def load(path: Path = TABLE) -> dict[Kind, tuple[Band, ...]]:
    """The fitted bands of each kind, lowest first."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {
        Kind(kind): tuple(Band(**band) for band in sorted(bands, key=lambda b: b["low"]))
        for kind, bands in raw["bands"].items()
    }


BANDS = load()


def confidence(regularity: float, halves: tuple[int, int]) -> float:
    """0-1: the share of tiles read right among those of ``halves``' kind scored like
    ``regularity`` (0-1) on the fitting parts."""
    bands = BANDS[kind_of(halves)]
    share = bands[0].share
    for band in bands:
        if regularity >= band.low:
            share = band.share
    return share


def highest_unsure(halves: tuple[int, int], sure: float) -> float:
    """The highest confidence of ``halves``' kind below ``sure`` (0-1): what a tile is given
    at most when it is read in a way the fitted table never saw it (a mark left out)."""
    below = [band.share for band in BANDS[kind_of(halves)] if band.share < sure]
    return max(below, default=0.0)
