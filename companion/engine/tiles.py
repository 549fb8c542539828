"""Tiles and domino sets (RULES.md §2).

A tile is an unordered pair of pip values. In a layout the written order matters (touching end
first); that orientation lives in :mod:`companion.engine.layout`, not here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from .errors import ErrorCode, TileError
from .reasons import Reason

#: Set sizes the companion supports: double-6, 9, 12, 15 and 18 (RULES.md §2).
SUPPORTED_SETS: tuple[int, ...] = (6, 9, 12, 15, 18)

#: The longest text read as a tile ("[ 18 - 17 ]" is 11 characters); longer is not a tile.
MAX_TILE_TEXT = 16
#: what may stand between a tile's two numbers: 9-5, 9|5, 9:5 or 9/5 (one home for the notation:
#: the checker's notation and forms and the OpenAPI document build on these)
TILE_SEPARATOR = r"[-|:/]"
# Each run of spaces has exactly one place in the pattern (no "\s*\[?\s*"), so a failed match
# costs time linear in the text, not quadratic. Groups 1 and 2 are the two numbers.
TILE_TEXT = rf"(?:\[\s*)?(\d{{1,2}})\s*{TILE_SEPARATOR}\s*(\d{{1,2}})(?:\s*\])?"
#: one tile as a whole text, spaces around allowed ("[9-5]", " 9 | 5 ")
TILE_PATTERN = rf"^\s*{TILE_TEXT}\s*$"
_TILE_TEXT = re.compile(TILE_PATTERN)


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One domino, stored high end first so that ``Tile(9, 5) == Tile.of(5, 9)``.

    Attributes:
        high: the larger pip value (0..18).
        low: the smaller pip value (0..high).
    """

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high):
            raise TileError(
                ErrorCode.BAD_TILE,
                "%(high)s-%(low)s is not a domino (use Tile.of).",
                params={"high": self.high, "low": self.low},
            )

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with ends ``a`` and ``b`` in either order. Raises TileError if negative."""
        if a < 0 or b < 0:
            raise TileError(
                ErrorCode.BAD_TILE, "%(a)s-%(b)s has a negative end.", params={"a": a, "b": b}
            )
        return cls(max(a, b), min(a, b))

    @property
    def is_double(self) -> bool:
        """True for d-d tiles (doubles are laid crosswise and start a chicken foot, §5.4)."""
        return self.high == self.low

    @property
    def pips(self) -> int:
        """Plain pip count of both ends, in pips (house-rule values are in scoring.py, §7)."""
        return self.high + self.low

    def has(self, value: int) -> bool:
        """True if either end shows ``value``."""
        return value in (self.high, self.low)

    def other(self, value: int) -> int:
        """The end opposite an end showing ``value``. Raises TileError if no end shows it."""
        if self.high == value:
            return self.low
        if self.low == value:
            return self.high
        raise TileError(
            Reason.NO_MATCH, "%(tile)s has no %(value)s end.", params={"tile": self, "value": value}
        )

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __eq__(self, other: object) -> bool:
        # Hand and layout lookups compare tiles all the time: no tuples built.
        if other.__class__ is Tile:
            return self.high == other.high and self.low == other.low
        return NotImplemented

    def __hash__(self) -> int:
        # Tiles are hashed on every layout and hand lookup: one multiply instead of the
        # generated hash((high, low)). Equal tiles have equal ends, so equal hashes.
        return self.high * 64 + self.low


def parse_ends(text: object, where: str = "") -> tuple[int, int]:
    """Parse ``"a-b"`` into its two ends in written order (touching end first in a layout).

    Accepts ``-``, ``|``, ``:`` or ``/`` between the numbers and optional brackets.
    Raises TileError(``BAD_TILE``) for anything else.
    """
    if text is None:  # a key left out of pasted JSON: say so, not "not None"
        raise TileError(ErrorCode.BAD_TILE, 'A tile is missing here: write it like "9-5".', where)
    if not isinstance(text, str):
        raise TileError(
            ErrorCode.BAD_TILE,
            'A tile must be written as text like "9-5", not %(text)s.',
            where,
            params={"text": repr(text)},
        )
    match = _TILE_TEXT.match(text) if len(text) <= MAX_TILE_TEXT else None
    if not match:
        raise TileError(
            ErrorCode.BAD_TILE,
            '"%(text)s" is not a tile; write tiles like "9-5".',
            where,
            params={"text": text},
        )
    return int(match.group(1)), int(match.group(2))


def parse_tile(text: object, where: str = "") -> Tile:
    """Parse ``"a-b"`` (either order) into a Tile. Raises TileError(``BAD_TILE``).

    >>> from companion.engine import parse_tile
    >>> parse_tile("5-9")
    Tile(high=9, low=5)
    """
    a, b = parse_ends(text, where)
    return Tile.of(a, b)


@dataclass(frozen=True, slots=True)
class DominoSet:
    """A double-N set: every unordered pair {a, b} with 0 <= a <= b <= N (RULES.md §2).

    Attributes:
        n: the highest pip value (6, 9, 12, 15 or 18).
    """

    n: int

    def __post_init__(self) -> None:
        if not isinstance(self.n, int) or isinstance(self.n, bool) or self.n not in SUPPORTED_SETS:
            raise TileError(
                ErrorCode.BAD_SET,
                "Sets are double-6, 9, 12, 15 or 18; %(n)s is not one of them.",
                params={"n": repr(self.n)},
            )

    @property
    def tile_count(self) -> int:
        """Number of tiles, (N+1)(N+2)/2: 28, 55, 91, 136, 190."""
        return (self.n + 1) * (self.n + 2) // 2

    @property
    def total_pips(self) -> int:
        """Pips on the whole set, N(N+1)(N+2)/2, in pips."""
        return self.n * (self.n + 1) * (self.n + 2) // 2

    @property
    def rounds(self) -> int:
        """Doubles in the set = rounds in a game, N+1 (RULES.md §4)."""
        return self.n + 1

    @property
    def spoke_tiles_per_suit(self) -> int:
        """Non-double tiles carrying a given number: N. Caps the hub's spokes (§5.2)."""
        return self.n

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile, highest first (9-9, 9-8, ..., 0-0)."""
        # A slotted dataclass has no __dict__ for functools.cached_property: cache per N instead.
        return _set_tiles(self.n)

    def double(self, value: int) -> Tile:
        """The double ``value-value``. Raises TileError if outside the set."""
        return self.check(Tile(value, value))

    def suit(self, value: int) -> tuple[Tile, ...]:
        """The N+1 tiles showing ``value`` (its double first)."""
        double = self.double(value)
        return (double, *(t for t in self.tiles if t.has(value) and t != double))

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.high <= self.n

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def check(self, tile: Tile, where: str = "") -> Tile:
        """Return ``tile`` if it belongs to this set, else raise TileError(``TILE_OUTSIDE_SET``)."""
        if tile.high > self.n:
            raise TileError(
                ErrorCode.TILE_OUTSIDE_SET,
                "%(tile)s is not in a double-%(n)s set (its highest number is %(n)s).",
                where,
                params={"tile": tile, "n": self.n},
            )
        return tile

    def parse(self, text: object, where: str = "") -> Tile:
        """Parse ``"a-b"`` and check it is in this set. Raises TileError."""
        return self.check(parse_tile(text, where), where)

    def parse_hand(self, texts: object, where: str = "") -> tuple[Tile, ...]:
        """Parse a list of tile strings, refusing duplicates and lists longer than the set
        (``TOO_LARGE``, checked before any tile is read). Raises TileError."""
        if not isinstance(texts, list | tuple):
            raise TileError(
                ErrorCode.BAD_HAND, 'A hand must be a list of tiles like ["9-5", "2-2"].', where
            )
        if len(texts) > self.tile_count:
            raise TileError(
                ErrorCode.TOO_LARGE,
                "This lists %(count)s tiles; a double-%(n)s set has only %(tile_count)s.",
                where,
                params={"count": len(texts), "n": self.n, "tile_count": self.tile_count},
            )
        tiles = tuple(self.parse(t, f"{where}[{i}]") for i, t in enumerate(texts))
        ensure_distinct(tiles, where)
        return tiles


@cache
def _set_tiles(n: int) -> tuple[Tile, ...]:
    return tuple(Tile(h, lo) for h in range(n, -1, -1) for lo in range(h, -1, -1))


def ensure_distinct(tiles: Iterable[Tile], where: str = "") -> None:
    """Raise TileError(``DUPLICATE_TILE``) if any tile appears twice (each tile exists once)."""
    seen: set[Tile] = set()
    for tile in tiles:
        if tile in seen:
            raise TileError(
                ErrorCode.DUPLICATE_TILE,
                "%(tile)s appears twice; a set has only one.",
                where,
                params={"tile": tile},
            )
        seen.add(tile)
