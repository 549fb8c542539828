"""Tiles and sets (RULES.md §2): sizes, pips, parsing and validation."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine import DominoSet, Tile, TileError, parse_tile
from companion.engine.tiles import ensure_distinct

# RULES.md §2 table: set -> (tiles, total pips, doubles = rounds, heaviest tile pips).
SET_TABLE = {
    6: (28, 168, 7, 12),
    9: (55, 495, 10, 18),
    12: (91, 1092, 13, 24),
    15: (136, 2040, 16, 30),
    18: (190, 3420, 19, 36),
}


@pytest.mark.parametrize(("n", "facts"), SET_TABLE.items())
def test_set_table(n: int, facts: tuple[int, int, int, int]) -> None:
    tiles, pips, rounds, heaviest = facts
    dominoes = DominoSet(n)
    assert (dominoes.tile_count, dominoes.total_pips, dominoes.rounds) == (tiles, pips, rounds)
    assert len(dominoes.tiles) == len(set(dominoes.tiles)) == tiles
    assert sum(t.pips for t in dominoes) == pips
    assert max(t.pips for t in dominoes) == heaviest == Tile(n, n).pips
    assert sum(t.is_double for t in dominoes) == rounds


@pytest.mark.parametrize("n", SET_TABLE)
def test_each_value_appears_n_plus_2_times_and_each_suit_has_n_plus_1_tiles(n: int) -> None:
    dominoes = DominoSet(n)
    halves = Counter(v for t in dominoes for v in (t.high, t.low))
    assert set(halves.values()) == {n + 2}
    for v in range(n + 1):
        suit = dominoes.suit(v)
        assert len(suit) == n + 1 and suit[0] == Tile(v, v)
        assert sum(not t.is_double for t in suit) == n == dominoes.spoke_tiles_per_suit


def test_set_tiles_are_listed_highest_first_and_iterable() -> None:
    """Regression: DominoSet.tiles raised TypeError (cached_property on a slotted class)."""
    assert DominoSet(6).tiles[:3] == (Tile(6, 6), Tile(6, 5), Tile(6, 4))
    assert DominoSet(6).tiles[-1] == Tile(0, 0)
    assert list(DominoSet(9)) == list(DominoSet(9).tiles)


@pytest.mark.parametrize("n", [0, 5, 7, 10, 21, True, "9"])
def test_unsupported_sets(n: object) -> None:
    with pytest.raises(TileError) as err:
        DominoSet(n)  # type: ignore[arg-type]
    assert err.value.code == "BAD_SET"


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("9-5", Tile(9, 5)),
        ("5-9", Tile(9, 5)),
        ("0-0", Tile(0, 0)),
        ("[3|4]", Tile(4, 3)),
        (" 12 : 7 ", Tile(12, 7)),
        ("18/18", Tile(18, 18)),
    ],
)
def test_parse_tile_either_order(text: str, tile: Tile) -> None:
    assert parse_tile(text) == tile


@pytest.mark.parametrize(
    "text", ["", "9", "9-", "a-b", "9-5-1", "-1-2", "100-1", None, 95, ["9", "5"]]
)
def test_parse_tile_refuses_non_tiles(text: object) -> None:
    with pytest.raises(TileError) as err:
        parse_tile(text)
    assert err.value.code == "BAD_TILE"
    assert err.value.message


@pytest.mark.parametrize(("n", "text"), [(6, "7-1"), (9, "10-0"), (12, "13-13"), (15, "16-2")])
def test_tile_outside_the_set(n: int, text: str) -> None:
    with pytest.raises(TileError) as err:
        DominoSet(n).parse(text, "input.hand[0]")
    assert (err.value.code, err.value.where) == ("TILE_OUTSIDE_SET", "input.hand[0]")


def test_the_heaviest_tile_is_inside_its_set() -> None:
    for n in SET_TABLE:
        assert DominoSet(n).parse(f"{n}-{n}") == Tile(n, n)


def test_duplicates_refused() -> None:
    with pytest.raises(TileError) as err:
        DominoSet(9).parse_hand(["1-2", "3-4", "2-1"], "input.hand")
    assert err.value.code == "DUPLICATE_TILE"
    with pytest.raises(TileError):
        ensure_distinct([Tile(3, 3), Tile(3, 3)])
    with pytest.raises(TileError) as err:
        DominoSet(9).parse_hand("1-2", "input.hand")
    assert err.value.code == "BAD_HAND"


def test_tile_basics() -> None:
    tile = Tile.of(5, 9)
    assert (tile.high, tile.low, tile.pips, tile.is_double, str(tile)) == (9, 5, 14, False, "9-5")
    assert tile.other(9) == 5 and tile.other(5) == 9 and tile.has(5) and not tile.has(4)
    assert Tile(4, 4).is_double and Tile(4, 4).other(4) == 4
    with pytest.raises(TileError):
        tile.other(3)
    with pytest.raises(TileError):
        Tile(2, 5)  # must be stored high end first
    with pytest.raises(TileError):
        Tile.of(-1, 3)
