"""Seasons: a calendar year or any date range of game nights, looked back on.

A season's standings are the leaderboard over its dates (:mod:`companion.history.aggregates`
with a date filter); this module adds what only a season has: each player's rating movement
over it (the stored :mod:`.ratings` steps), the best single night and the years there are.
Plain values in and out; units: games, points, rating points (ordinal, ``mu - 3 sigma``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Integer, case, cast, extract, func, select
from sqlalchemy.orm import Session, aliased

from ..models import FinalStanding, GameNight, PlayerSummary, RatingStep, Seat
from .summaries import live_lines, not_indexed


@dataclass(frozen=True, slots=True)
class Season:
    """The nights played from ``start`` to ``end`` (both included)."""

    start: date
    end: date

    @classmethod
    def year(cls, year: int) -> Season:
        """The calendar year ``year``."""
        return cls(date(year, 1, 1), date(year, 12, 31))

    @property
    def is_year(self) -> bool:
        """It is exactly one calendar year."""
        return self == Season.year(self.start.year)


@dataclass(frozen=True, slots=True)
class Movement:
    """A player's rating over a season: ``before`` (ordinal just before their first game of
    the season; None for a player new in it, who starts at 0), ``after`` (after their last)
    and the season's rated games."""

    player_id: int
    before: float | None
    after: float
    games: int

    @property
    def change(self) -> float:
        """Rating points gained (negative: lost) over the season; a new player from 0."""
        return self.after - (self.before or 0.0)


@dataclass(frozen=True, slots=True)
class BestNight:
    """A player's best single night of a season: most games won, then fewest points per game."""

    night_id: int
    played_on: date
    player_id: int
    wins: int
    games: int
    points: int


def years(session: Session) -> list[int]:
    """The calendar years with a finished game, newest first (the first and last month of the
    monthly summaries: two seeks on their month index, not a scan of every bucket)."""

    def edge(order: Any) -> Any:
        return (
            select(PlayerSummary.month)
            .where(PlayerSummary.games > 0)
            .order_by(order)
            .limit(1)
            .scalar_subquery()
        )

    first, last = session.execute(
        select(edge(PlayerSummary.month.asc()), edge(PlayerSummary.month.desc()))
    ).one()
    if first is None or last is None:
        return []
    return list(range(last.year, first.year - 1, -1))


def movements(session: Session, season: Season, player_id: int | None = None) -> list[Movement]:
    """Each player's rating movement over the season (or only ``player_id``'s), biggest gain
    first. Reads the season's steps and one earlier step per player (steps are stored in order
    of play, so the largest id before a player's first season step is the one just before)."""
    inside = (
        select(
            RatingStep.player_id,
            func.min(RatingStep.id).label("first"),
            func.max(RatingStep.id).label("last"),
            func.count(RatingStep.id).label("games"),
        )
        .where(RatingStep.played_on.between(season.start, season.end))
        .group_by(RatingStep.player_id)
    )
    if player_id is not None:
        inside = inside.where(RatingStep.player_id == player_id)
    span = inside.subquery()
    earlier = aliased(RatingStep)
    before_id = (
        select(func.max(earlier.id))
        .where(earlier.player_id == span.c.player_id, earlier.id < span.c.first)
        .scalar_subquery()
    )
    end = aliased(RatingStep)
    start = aliased(RatingStep)
    rows = session.execute(
        select(span.c.player_id, start.ordinal, end.ordinal, span.c.games)
        .join(end, end.id == span.c.last)
        .outerjoin(start, start.id == before_id)
    )
    out = [Movement(pid, before, after, games) for pid, before, after, games in rows]
    return sorted(out, key=lambda m: (-m.change, m.player_id))


def best_night(session: Session, season: Season, player_id: int | None = None) -> BestNight | None:
    """The season's best single night by anyone (or by ``player_id``): the most games won in
    one night, then the fewest points per game, then the earliest."""
    wins = func.sum(cast(case((FinalStanding.rank == 1, 1), else_=0), Integer))
    games = func.count(FinalStanding.id)
    points = func.sum(FinalStanding.total)
    query = (
        live_lines(GameNight.id, GameNight.played_on, Seat.player_id, wins, games, points)
        .where(GameNight.played_on.between(season.start, season.end))
        .group_by(GameNight.id, GameNight.played_on, Seat.player_id)
        .order_by(wins.desc(), (points * 1.0 / games).asc(), GameNight.played_on, Seat.player_id)
        .limit(1)
    )
    if player_id is not None:  # the season's nights drive the query, not the player's seats
        query = query.where(not_indexed(Seat.player_id) == player_id)
    row = session.execute(query).first()
    if row is None or not row[3]:
        return None
    return BestNight(row[0], row[1], row[2], int(row[3]), int(row[4]), int(row[5]))


def nights_and_games(
    session: Session, season: Season, player_id: int | None = None
) -> tuple[int, int]:
    """(game nights, finished games) in the season (that ``player_id`` finished)."""
    query = live_lines(
        func.count(func.distinct(GameNight.id)), func.count(func.distinct(FinalStanding.game_id))
    ).where(GameNight.played_on.between(season.start, season.end))
    if player_id is not None:  # the season's nights drive the query, not the player's seats
        query = query.where(not_indexed(Seat.player_id) == player_id)
    nights, games = session.execute(query).one()
    return int(nights or 0), int(games or 0)


def player_years(session: Session, player_id: int) -> list[int]:
    """The calendar years in which the player has a finished game, newest first (from the
    player's monthly summaries: one row per month played, not one per game)."""
    year = extract("year", PlayerSummary.month)
    rows = session.scalars(
        select(year)
        .where(PlayerSummary.player_id == player_id, PlayerSummary.games > 0)
        .distinct()
        .order_by(year.desc())
    )
    return [int(y) for y in rows]
