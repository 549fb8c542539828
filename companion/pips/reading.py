"""What the counter read from a photo: frozen values, and their JSON shape (one for the page,
the API and the command line)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

#: The confidence (a share of tiles read right, :mod:`.calibration`) from which a tile is shown
#: as read without asking: of 100 tiles shown so, at most about one may be wrong. Tiles below
#: it (their pips less regular; every 0-0, a kind too rarely seen to be sure of) wait for a tap.
SURE = 0.99

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


class Unread(StrEnum):
    """Why a tile found was not read (the API's ``why_unread``)."""

    TOO_MANY_PIPS = "too_many_pips"  # a half shows more pips than the set allows
    MIXED_PIP_SIZES = "mixed_pip_sizes"  # marks of very different sizes: not all are pips
    #: more than one 0-0 read: a set has one, so stripes of grain or a pattern made them
    DOUBLE_BLANK_TWICE = "double_blank_twice"


@dataclass(frozen=True)
class Pip:
    """One counted pip: centre ``x``, ``y`` and radius ``r``, in working-image pixels."""

    x: float
    y: float
    r: float


@dataclass(frozen=True)
class TileRead:
    """One tile found face up.

    ``corners``: the tile's outline (4 points, working-image pixels); ``halves``: the pips
    counted on each side of the divider (None for a tile that could not be read, which is
    never guessed); ``confidence``: 0-1, the share of tiles read right among those that looked
    like this one on the labelled set (:mod:`.calibration`); ``regularity``: 0-1, how regular
    its pips looked (sizes, symmetry), from which the confidence is fitted.
    """

    corners: Quad
    halves: tuple[int, int] | None
    pips: tuple[Pip, ...]
    confidence: float
    why_unread: Unread | None = None
    regularity: float = 0.0

    @property
    def read(self) -> bool:
        """Whether both halves were counted."""
        return self.halves is not None

    @property
    def sure(self) -> bool:
        """Read with confidence enough to be shown as read; a tile not sure must be confirmed
        by a tap."""
        return self.halves is not None and self.confidence >= SURE

    @property
    def text(self) -> str:
        """The tile as the app writes it, high half first ("6-5"), or "?" when unread."""
        if self.halves is None:
            return "?"
        high, low = max(self.halves), min(self.halves)
        return f"{high}-{low}"

    @property
    def centre(self) -> Point:
        """The middle of the outline."""
        return (
            sum(p[0] for p in self.corners) / 4,
            sum(p[1] for p in self.corners) / 4,
        )


@dataclass(frozen=True)
class Reading:
    """Everything read from one photo. ``width``/``height``: the working image the positions
    refer to; ``scale``: original pixels per working pixel."""

    width: int
    height: int
    scale: float
    tiles: tuple[TileRead, ...] = field(default=())

    @property
    def read_tiles(self) -> tuple[TileRead, ...]:
        """The tiles whose two halves were counted."""
        return tuple(t for t in self.tiles if t.read)

    @property
    def unread(self) -> tuple[TileRead, ...]:
        """The tiles found but not read."""
        return tuple(t for t in self.tiles if not t.read)

    @property
    def total(self) -> int:
        """The pips on the tiles read (unread tiles add nothing: the player must say)."""
        return sum(sum(t.halves) for t in self.tiles if t.halves is not None)

    @property
    def confidence(self) -> float:
        """0-1: the least confident tile, lowered for each unread tile; 0 with no tile."""
        if not self.tiles:
            return 0.0
        lowest = min(t.confidence for t in self.tiles)
        return round(lowest * (0.5 ** len(self.unread)), 2)

    @property
    def complete(self) -> bool:
        """Whether tiles were found and every one of them was read."""
        return bool(self.tiles) and not self.unread

    def as_json(self) -> dict[str, Any]:
        """The API's answer (positions in the working image; ``scale`` maps them back)."""
        return {
            "pips": self.total,
            "tiles": [t.text for t in self.read_tiles],
            "unread": len(self.unread),
            "confidence": self.confidence,
            "image": {"width": self.width, "height": self.height, "scale": self.scale},
            "found": [_tile_json(t) for t in self.tiles],
        }


def _tile_json(tile: TileRead) -> dict[str, Any]:
    return {
        "reading": tile.text,
        "read": tile.read,
        "halves": list(tile.halves) if tile.halves is not None else None,
        "pips": sum(tile.halves) if tile.halves is not None else None,
        "confidence": tile.confidence,
        "sure": tile.sure,
        "why_unread": tile.why_unread.value if tile.why_unread else None,
        "outline": [[round(x, 1), round(y, 1)] for x, y in tile.corners],
        "pip_marks": [[round(p.x, 1), round(p.y, 1), round(p.r, 1)] for p in tile.pips],
    }
