"""Player records from the stored standings, aggregated in SQL (RULES.md §8).

The leaderboard and a player's page used to gather every finished game's result in Python;
these read the same figures as ``GROUP BY`` aggregates over ``final_standings`` (stored by
:mod:`companion.services.results`), so a page costs a few queries and no per-game Python work.
The definitions are those of :mod:`.stats` (tests check both agree). Units: points, games,
rounds.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, and_, case, func
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import FinalStanding, Game, GameNight, Seat
from .results import Filters, live_finished
from .stats import HeadToHead, PlayerStats, rank_players


def _lines(filters: Filters, *columns: Any) -> Select[Any]:
    """``columns`` over the stored lines of live finished games narrowed by ``filters``."""
    return filters.apply(
        live_finished(*columns)
        .join(FinalStanding, FinalStanding.game_id == Game.id)
        .join(Seat, Seat.id == FinalStanding.seat_id)
    )


def _counts() -> tuple[Any, ...]:
    won = FinalStanding.rank == 1
    return (
        func.count(FinalStanding.id),
        func.sum(case((and_(won, FinalStanding.shared.is_(False)), 1), else_=0)),
        func.sum(case((and_(won, FinalStanding.shared.is_(True)), 1), else_=0)),
        func.sum(FinalStanding.rounds),
        func.sum(FinalStanding.total),
        func.sum(FinalStanding.zero_rounds),
        func.min(FinalStanding.total),
        func.max(FinalStanding.total),
    )


def _stats(player_id: int, row: Any) -> PlayerStats:
    games, wins, shared, rounds, points, zeros, best, worst = row
    return PlayerStats(
        player_id,
        int(games or 0),
        int(wins or 0),
        int(shared or 0),
        int(rounds or 0),
        int(points or 0),
        int(zeros or 0),
        best,
        None,
        worst,
        None,
    )


def leaderboard_rows(filters: Filters) -> list[PlayerStats]:
    """Every player's record over the filtered games, best first (one query)."""
    stmt = _lines(filters, Seat.player_id, *_counts()).group_by(Seat.player_id)
    rows = db.session.execute(stmt).all()
    return rank_players([_stats(row[0], row[1:]) for row in rows])


def player_record(player_id: int) -> PlayerStats:
    """``player_id``'s record over every live finished game, with the games of the best and
    worst totals (on equal totals the most recent game, as :mod:`.stats` does); three queries."""
    mine = Filters(player_id=player_id)
    row = db.session.execute(_lines(mine, *_counts()).where(Seat.player_id == player_id)).one()
    stats = _stats(player_id, row)
    if stats.games:
        newest = (GameNight.played_on.desc(), Game.id.desc())
        pick = _lines(mine, Game.id).where(Seat.player_id == player_id).limit(1)
        stats.best_game_id = db.session.scalar(pick.order_by(FinalStanding.total, *newest))
        stats.worst_game_id = db.session.scalar(pick.order_by(FinalStanding.total.desc(), *newest))
    return stats


def head_to_head_rows(player_id: int) -> list[HeadToHead]:
    """Every opponent of ``player_id`` in live finished games with the head-to-head record,
    most frequent first, then by opponent id (one query)."""
    other = aliased(FinalStanding)
    other_seat = aliased(Seat)
    stmt = (
        _lines(
            Filters(),
            other_seat.player_id,
            func.count(other.id),
            func.sum(case((FinalStanding.rank < other.rank, 1), else_=0)),
            func.sum(case((FinalStanding.rank > other.rank, 1), else_=0)),
            func.sum(case((FinalStanding.rank == other.rank, 1), else_=0)),
        )
        .join(other, and_(other.game_id == FinalStanding.game_id, other.id != FinalStanding.id))
        .join(other_seat, other_seat.id == other.seat_id)
        .where(Seat.player_id == player_id, other_seat.player_id != player_id)
        .group_by(other_seat.player_id)
    )
    rows = [
        HeadToHead(pid, int(games), int(ahead or 0), int(behind or 0), int(level or 0))
        for pid, games, ahead, behind, level in db.session.execute(stmt)
    ]
    return sorted(rows, key=lambda h: (-h.games, h.opponent_id))
