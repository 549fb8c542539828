"""Helpers for the setup-page tests: the form posts a browser would send."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from companion.engine import preset
from companion.extensions import db
from companion.games.forms import encode_value, shown_switches
from companion.models import Game


def rules_data(preset_name: str = "standard", **switches: Any) -> dict[str, str]:
    """The house-rule fields as the page shows them for ``preset_name``, with ``switches``
    changed (typed values, encoded like the selects)."""
    values = {**preset(preset_name).to_dict(), **switches}
    data = {"rules-applied_preset": preset_name}
    for switch in shown_switches():
        value = values[switch.name]
        data[f"rules-{switch.name}"] = "" if value is None else encode_value(value)
    return data


def game_data(
    names: list[str] | tuple[str, ...] = ("Ann", "Bob", "Cleo", "Dev"),
    *,
    seats: list[int | None] | None = None,
    known: list[tuple[int, bool, int | None]] = (),
    set_size: int | str = 9,
    preset_name: str = "standard",
    button: str = "create",
    **switches: Any,
) -> dict[str, str]:
    """A new-game form post: new ``names`` (with optional seat numbers), ``known`` rows of
    (player id, plays, seat), the set, the preset's rules plus ``switches``, and a button."""
    data: dict[str, str] = {"set_size": str(set_size), "preset": preset_name, button: "1"}
    data.update(rules_data(preset_name, **switches))
    for i, name in enumerate(names):
        data[f"new-{i}-name"] = name
        seat = seats[i] if seats else None
        data[f"new-{i}-seat"] = "" if seat is None else str(seat)
    for i, (player_id, plays, seat) in enumerate(known):
        data[f"known-{i}-player_id"] = str(player_id)
        if plays:
            data[f"known-{i}-plays"] = "y"
        data[f"known-{i}-seat"] = "" if seat is None else str(seat)
    return data


def start_night(client, played_on: str = "2026-11-28") -> int:
    """Create a game night through the form and return its id."""
    response = client.post("/nights/new", data={"played_on": played_on})
    assert response.status_code == 303, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


def start_game(client, night_id: int, names=("Ann", "Bob", "Cleo", "Dev"), **kwargs) -> str:
    """Create a game through the form and return its edit token (from the redirect)."""
    response = client.post(f"/nights/{night_id}/games/new", data=game_data(names, **kwargs))
    assert response.status_code == 303, response.text
    location = response.headers["Location"]
    assert location.startswith("/g/")
    return location.split("/")[2]


def game_by_link(token: str) -> Game:
    """The game whose edit link is ``token``."""
    return db.session.scalars(select(Game).where(Game.edit_token == token)).one()


def delete_by_link(client, token: str) -> None:
    """Delete the game of edit link ``token`` as its scorekeeper's phone does."""
    version = game_by_link(token).version
    response = client.post(f"/g/{token}/delete", data={"version": str(version)})
    assert response.status_code == 303, response.text
    db.session.expire_all()


def restore_by_link(client, token: str) -> None:
    """Restore the deleted game of edit link ``token`` (its "undo delete" page's button)."""
    version = game_by_link(token).version
    response = client.post(f"/g/{token}/restore", data={"version": str(version)})
    assert response.status_code == 303, response.text
    db.session.expire_all()
