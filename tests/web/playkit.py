"""Helpers for the play tests: games made directly through the models, and form posts."""

from __future__ import annotations

import html
import re
from datetime import date
from html.parser import HTMLParser
from typing import Any

from sqlalchemy import select

from companion.engine import RuleSet
from companion.extensions import db
from companion.models import Game, GameNight, HandScore, Player, Round, Seat
from companion.services.game_setup import stored_key


def player_named(name: str) -> Player:
    """The live player of that name, made when new: one live player per name, as the database
    requires (tests sharing a database, such as the browser tests' live server, meet the same
    names again)."""
    key = stored_key(name)
    with db.session.no_autoflush:  # a half-built game of the caller must not be flushed here
        found = db.session.scalar(
            select(Player).where(Player.name_key == key, Player.merged_into_id.is_(None))
        )
    return found or Player(name=name, name_key=key)


def make_game(
    names: tuple[str, ...] = ("Ann", "Bob", "Cy"),
    set_size: int = 6,
    **rules: Any,
) -> Game:
    """A new active game in a new night, players seated in the order given."""
    night = GameNight(played_on=date(2026, 11, 29))
    ruleset = RuleSet.from_dict({"set_size": set_size, **rules})
    game = Game(night=night, set_size=set_size, rules=ruleset.to_dict())
    for position, name in enumerate(names):
        game.seats.append(Seat(player=player_named(name), position=position))
    db.session.add(game)
    db.session.commit()
    return game


def seat_ids(game: Game) -> dict[str, int]:
    """Player name -> seat id."""
    return {s.player.name: s.id for s in game.seats}


def round_post(
    game: Game,
    double: int,
    totals: dict[str, Any] | None = None,
    tiles: dict[str, list[str]] | None = None,
    out: str | None = None,
    blocked: bool = False,
    version: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Form data for a round: typed ``totals`` and/or tapped ``tiles`` by player name."""
    ids = seat_ids(game)
    data: dict[str, Any] = {
        "version": str(game.version if version is None else version),
        "double": str(double),
    }
    for name, total in (totals or {}).items():
        data[f"total_{ids[name]}"] = str(total)
    for name, hand in (tiles or {}).items():
        data[f"tiles_{ids[name]}"] = hand
    if out:
        data[f"out_{ids[out]}"] = "y"
    if blocked:
        data["blocked"] = "y"
    data.update(extra)
    return data


def page_html(client, game: Game) -> str:
    """The scorekeeper's game page as HTML."""
    return client.get(f"/g/{game.edit_token}").get_data(as_text=True)


def text(response) -> str:
    """The response body as text with tags removed and whitespace collapsed (for asserts)."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<[^>]+>", " ", body)
    return " ".join(html.unescape(body).split())


def add_scored_rounds(game: Game, points: list[dict[str, int]]) -> Game:
    """Store rounds straight from ``points`` (per round, player name -> points; 0 = went out),
    doubles from the set's highest down, for pages that only show a board; the game is finished
    when every double has a round. No rules are checked: use ``round_post`` to test saving."""
    seats = {s.player.name: s for s in game.seats}
    for k, scores in enumerate(points):
        rnd = Round(number=len(game.rounds) + 1, start_double=game.set_size - k, status="scored")
        for name, pts in scores.items():
            rnd.hands.append(HandScore(seat=seats[name], points=pts, went_out=pts == 0))
        game.rounds.append(rnd)
    if len(game.rounds) == game.set_size + 1:
        game.status = "finished"
    game.version += 1
    db.session.commit()
    return game


class _RoundForm(HTMLParser):
    """What the game page's round form holds, as its Save would send it (checked boxes only,
    the selected option): a list of (name, value)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._in = False
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "round-form" in (a.get("class") or ""):
            self._in = True
        if not self._in:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            box = a.get("type") in ("checkbox", "radio")
            if box and "checked" not in a:
                return
            self.fields.append((name, a.get("value") or ("y" if box else "")))
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.fields.append((self._select, a.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._in = False
        elif tag == "select":
            self._select = None


def round_form_fields(html: str) -> dict[str, list[str]]:
    """The round form's fields by name (values in order)."""
    found = _RoundForm()
    found.feed(html)
    fields: dict[str, list[str]] = {}
    for name, value in found.fields:
        fields.setdefault(name, []).append(value)
    return fields
