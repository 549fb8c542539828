"""The plain part of finding a game (companion/services/game_lookup.py): what a refused round
form carried, read from the posted fields it is handed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from werkzeug.datastructures import MultiDict

from companion.services.game_lookup import typed_values


def table() -> Any:
    seat = lambda i, name: SimpleNamespace(id=i, player=SimpleNamespace(name=name))  # noqa: E731
    return SimpleNamespace(seats=[seat(1, "Ann"), seat(2, "Bob")])


def test_typed_values_name_each_players_entries_and_leave_the_rest(app) -> None:
    form = MultiDict(
        [
            ("csrf_token", "x"),
            ("total_2", "12"),
            ("tiles_1", "6-5"),
            ("tiles_1", "3-1"),
            ("total_9", "4"),  # not a seat of this game
            ("tiles_2", ""),
        ]
    )
    with app.test_request_context():
        assert typed_values(table(), form) == [
            ("Bob (points)", "12"),
            ("Ann (tiles)", "6-5, 3-1"),
        ]
