"""The history pages a server process renders once before its first request (see
:func:`companion.warm_up`): read-only GETs, so that the first reader of each page does not pay
for the process's first compilation of its SQL statements (SQLAlchemy's compiled cache), the
ORM's loader set-up for its eager loads, SQLite's statement and page caches of the pooled
connection, and the template's first render. Nothing is written; the figures shown are not
kept anywhere (the next request reads the database again)."""

from __future__ import annotations

from flask import url_for
from sqlalchemy import select

from ..extensions import db
from ..models import Game, GameNight, Seat
from ..vocab import RankBy
from .finished_games import live_finished


def warm_urls() -> list[str]:
    """The URLs to render: the nights list (first and a later page), the leaderboard, the
    players, and the newest finished game with one of its players' pages (none of those two
    in an empty history). Needs a request context; reads two ids."""
    urls = [
        url_for("history.index"),
        url_for("history.index", page=2),
        url_for("history.leaderboard_page"),
        url_for("history.leaderboard_page", by=RankBy.RATING),
        url_for("history.players_list"),
        url_for("history.seasons_page"),
        url_for("api.ratings_list"),
    ]
    game = db.session.execute(
        live_finished(Game.id, Game.night_id, GameNight.played_on).order_by(Game.id.desc()).limit(1)
    ).first()
    if game is not None:
        game_id, night_id, played_on = game
        player_id = db.session.scalar(select(Seat.player_id).where(Seat.game_id == game_id))
        urls.append(url_for("history.game", game_id=game_id))
        # the night's story and picture (the picture also loads the font and Pillow's PNG)
        urls.append(url_for("history.night", night_id=night_id))
        urls.append(url_for("history.night_card", night_id=night_id))
        if player_id is not None:
            urls.append(url_for("history.player", player_id=player_id))
            year = played_on.year
            urls.append(url_for("history.player_year", year=year, player_id=player_id))
    return urls
