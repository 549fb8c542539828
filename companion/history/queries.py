"""Queries of the history pages: which nights and games are shown, loaded in a constant number
of SQL queries (eager loading with ``selectinload``; winners from :mod:`.results`).

Deleted nights and games (``deleted_at`` set) are hidden everywhere; a deleted night can be
restored for :data:`..services.deletion.RESTORE_WINDOW`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask import abort
from sqlalchemy import Select, and_, func, or_, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Game, GameNight, Player, Round, Seat
from ..services.deletion import deleted_recently
from ..services.game_setup import name_key
from ..vocab import GameStatus
from .finished_games import finished_results


def _live_game_with(*criteria: Any) -> Any:
    """``night.games.any(...)``: the night has a live game matching ``criteria``."""
    return GameNight.games.any(and_(Game.deleted_at.is_(None), *criteria))


def nights_query(
    *,
    text: str = "",
    player_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> Select[Any]:
    """Live game nights, newest first, matching every filter given.

    Args:
        text: found in the place or notes (case-insensitive) or in a player's name.
        player_id: the player sat at one of the night's live games.
        date_from, date_to: the night was played on or between these dates (inclusive).
    The games, seats and players of each night are eager-loaded (three more queries per page).
    """
    stmt = select(GameNight).where(GameNight.deleted_at.is_(None))
    if text:
        low = text.lower()
        stmt = stmt.where(
            or_(
                func.lower(GameNight.place).contains(low, autoescape=True),
                func.lower(GameNight.notes).contains(low, autoescape=True),
                _live_game_with(
                    Game.seats.any(
                        Seat.player.has(Player.name_key.contains(name_key(text), autoescape=True))
                    )
                ),
            )
        )
    if player_id is not None:
        stmt = stmt.where(_live_game_with(Game.seats.any(Seat.player_id == player_id)))
    if date_from is not None:
        stmt = stmt.where(GameNight.played_on >= date_from)
    if date_to is not None:
        stmt = stmt.where(GameNight.played_on <= date_to)
    return stmt.order_by(GameNight.played_on.desc(), GameNight.id.desc()).options(
        selectinload(GameNight.games).selectinload(Game.seats).selectinload(Seat.player)
    )


@dataclass
class GameSummary:
    """One game in the nights list: its players, and for a finished game its winners (names;
    more than one is a shared win) and the tie-break step that decided."""

    game: Game
    players: list[str]
    winners: list[str] = field(default_factory=list)
    decided_by: str = ""


@dataclass
class NightSummary:
    """One line of the nights list: the night, its live games, everyone who played."""

    night: GameNight
    games: list[GameSummary]
    players: list[str]


def live_games(night: GameNight) -> list[Game]:
    """The night's games that are not deleted, in the order they were started."""
    return [g for g in night.games if g.deleted_at is None]


def night_summaries(nights: Sequence[GameNight]) -> list[NightSummary]:
    """Summaries of ``nights`` (their games eager-loaded); winners of their finished games come
    from the engine via :func:`.results.finished_results` (a constant number of queries)."""
    finished = [g.id for n in nights for g in live_games(n) if g.status == GameStatus.FINISHED]
    results = {r.game_id: r for r in finished_results(game_ids=finished)} if finished else {}
    out = []
    for night in nights:
        games, everyone = [], {}
        for game in live_games(night):
            names = {s.player_id: s.player.name for s in game.seats}
            everyone.update(names)
            summary = GameSummary(game, list(names.values()))
            result = results.get(game.id)
            if result is not None:
                summary.winners = [names.get(pid, "?") for pid in result.winners]
                summary.decided_by = result.decided_by
            games.append(summary)
        out.append(NightSummary(night, games, list(everyone.values())))
    return out


def recently_deleted_nights(limit: int = 10) -> list[GameNight]:
    """Nights deleted less than ``RESTORE_WINDOW`` ago, newest deletion first."""
    return list(
        db.session.scalars(
            select(GameNight)
            .where(deleted_recently(GameNight.deleted_at))
            .order_by(GameNight.deleted_at.desc())
            .limit(limit)
        )
    )


def live_night(night_id: int, *, full: bool = False) -> GameNight:
    """The night ``night_id`` unless deleted; with ``full``, its games' seats, players,
    rounds, hands and rulings are eager-loaded.

    Raises werkzeug NotFound (404) for an unknown or deleted night.
    """
    stmt = select(GameNight).where(GameNight.id == night_id, GameNight.deleted_at.is_(None))
    if full:
        games = selectinload(GameNight.games)
        stmt = stmt.options(
            games.selectinload(Game.seats).selectinload(Seat.player),
            games.selectinload(Game.rounds).selectinload(Round.hands),
            games.selectinload(Game.rulings),
        )
    night = db.session.scalar(stmt)
    if night is None:
        abort(404)
    return night


def deleted_night(night_id: int) -> GameNight:
    """The night ``night_id`` if it was deleted less than ``RESTORE_WINDOW`` ago.

    Raises werkzeug NotFound (404) otherwise.
    """
    night = db.session.scalar(
        select(GameNight).where(GameNight.id == night_id, deleted_recently(GameNight.deleted_at))
    )
    if night is None:
        abort(404)
    return night


def live_game(game_id: int) -> Game:
    """The game ``game_id`` with its night, seats, players, rounds, hands, audit trail and
    rulings, unless the game or its night was deleted.

    Raises werkzeug NotFound (404) otherwise.
    """
    game = db.session.scalar(
        select(Game)
        .join(GameNight, Game.night_id == GameNight.id)
        .where(Game.id == game_id, Game.deleted_at.is_(None), GameNight.deleted_at.is_(None))
        .options(
            selectinload(Game.night),
            selectinload(Game.seats).selectinload(Seat.player),
            selectinload(Game.rounds).selectinload(Round.hands),
            selectinload(Game.rulings),
        )
    )
    if game is None:
        abort(404)
    return game
