"""A small valid ``chickenfoot-companion/v1`` document as plain data, built without a database:
one night, one double-6 game, Anna (seat 0), Bob (seat 1) and Chloé (seat 2); round 1 on the
6-6, Anna out, Bob holding 5-4 2-1 (12), Chloé 7 (tiles not entered)."""

from __future__ import annotations

from typing import Any

from companion.engine import RuleSet
from companion.services.exchange.shape import FORMAT

AT = "2026-11-20T19:00:00"


def player(ref: str, name: str, merged_into: str | None = None) -> dict[str, Any]:
    """A player of the document, its name key the lower-cased name."""
    return {
        "ref": ref,
        "name": name,
        "name_key": name.casefold(),
        "created_at": AT,
        "merged_into": merged_into,
    }


def hand(seat: int, points: int, tiles: list[str] | None, went_out: bool = False) -> dict:
    """A hand of a round: ``points`` in pips, ``tiles`` as written ("5-4") or None."""
    return {
        "seat": seat,
        "points": points,
        "went_out": went_out,
        "out_on_double": False,
        "tiles": tiles,
    }


def game(key: str = "share-a") -> dict[str, Any]:
    """A finished double-6 game with one scored round."""
    return {
        "key": key,
        "set_size": 6,
        "preset": "standard",
        "rules": RuleSet(set_size=6).to_dict(),
        "hand_size": None,
        "chosen_spokes": None,
        "status": "finished",
        "created_at": AT,
        "updated_at": AT,
        "finished_at": AT,
        "seats": [
            {"position": 0, "player": "p1"},
            {"position": 1, "player": "p2"},
            {"position": 2, "player": "p3"},
        ],
        "rounds": [
            {
                "number": 1,
                "start_double": 6,
                "status": "scored",
                "outcome": "out",
                "starter": 1,
                "created_at": AT,
                "updated_at": AT,
                "hands": [
                    hand(0, 0, [], went_out=True),
                    hand(1, 12, ["5-4", "2-1"]),
                    hand(2, 7, None),
                ],
            }
        ],
        "audit": [],
        "rulings": [],
    }


def document() -> dict[str, Any]:
    """The whole document (a new copy each call: tests change it freely)."""
    return {
        "format": FORMAT,
        "scope": "all",
        "players": [player("p1", "Anna"), player("p2", "Bob"), player("p3", "Chloé")],
        "nights": [
            {
                "played_on": "2026-11-20",
                "place": "Kitchen",
                "notes": "Pizza",
                "created_at": AT,
                "games": [game()],
            }
        ],
        "rulings": [],
    }
