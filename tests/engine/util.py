"""Small builders shared by the engine's rule-table tests."""

from __future__ import annotations

from companion.engine import DominoSet, Layout, Tile, parse_tile, replay

#: The standard double-9 cross of the cases file: 9-9 with spokes 9-5, 9-3, 9-7, 9-0.
CROSS = (("S1", "C", "9-5"), ("S2", "C", "9-3"), ("S3", "C", "9-7"), ("S4", "C", "9-0"))


def layout_json(center: str, *tiles: tuple[str, str, str]) -> dict:
    """RULES.md §0 layout JSON from (id, on, tile) triples (tile touching end first)."""
    return {"center": center, "tiles": [{"id": i, "on": o, "tile": t} for i, o, t in tiles]}


def lay(center: str, *tiles: tuple[str, str, str], n: int = 9, k: int = 4, toes: int = 3) -> Layout:
    """Replay a layout through the engine (so every test position is a reachable one)."""
    return replay(layout_json(center, *tiles), DominoSet(n), k, toes)


def tiles(*texts: str) -> list[Tile]:
    """Parse tile texts such as ``"9-5"``."""
    return [parse_tile(t) for t in texts]


def t(text: str) -> Tile:
    """One tile from its text."""
    return parse_tile(text)
