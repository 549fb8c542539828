"""Per-player summaries of finished games, one row per (player, set size, month) bucket,
and head-to-head records per (player, opponent, month).

The leaderboard and a player's page add up these buckets (:class:`companion.models.
PlayerSummary`) instead of every stored line of ``final_standings``, so their cost grows with
the players and months in the filter, not with the games played. Definitions are those of
:mod:`companion.history.stats` (RULES.md §8); units: points, games, rounds.

A bucket is refreshed (recomputed from the lines of its live finished games, one ``GROUP BY``
per month touched) whenever :mod:`companion.services.results` stores a game's standings again,
for the buckets the game was in before the change (a merge moves seats to another player, a
deleted night drops its games) and after it. Best and worst totals are minima and maxima, which
cannot be taken back by subtraction; recomputing the few touched buckets keeps them exact.

All-time totals per (player, set size) (:class:`companion.models.PlayerTotal`) and head-to-head
per (player, opponent) (:class:`companion.models.PairTotal`) are refreshed in the same call,
after the months: each touched total is recomputed by adding up that player's monthly buckets
of that set (best and worst as minimum and maximum; an index on ``(player_id, set_size,
month)`` finds them) and each touched pair from its monthly pairs. The default leaderboard and
a player's page read these, so their cost does not grow with the months of history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from typing import Any

from sqlalchemy import Connection, and_, case, delete, func, insert, select
from sqlalchemy.orm import Session, aliased

from ..models import (
    FinalStanding,
    Game,
    GameNight,
    PairSummary,
    PairTotal,
    PlayerSummary,
    PlayerTotal,
    Seat,
)
from ..vocab import GameStatus

#: (player id, set size, first day of the month)
Bucket = tuple[int, int, date]

#: game ids per ``IN (...)`` list
BATCH = 500


def month_of(day: date) -> date:
    """The first day of ``day``'s month: the bucket a game night falls in."""
    return day.replace(day=1)


def next_month(month: date) -> date:
    """The first day of the month after ``month``."""
    return date(month.year + (month.month == 12), month.month % 12 + 1, 1)


def live_lines(*columns: Any) -> Any:
    """``SELECT columns`` over the stored lines of finished games that are not deleted, in
    nights not deleted (lines joined to their seats, games and nights)."""
    return (
        select(*columns)
        .select_from(FinalStanding)
        .join(Seat, Seat.id == FinalStanding.seat_id)
        .join(Game, Game.id == FinalStanding.game_id)
        .join(GameNight, GameNight.id == Game.night_id)
        .where(
            Game.status == GameStatus.FINISHED,
            Game.deleted_at.is_(None),
            GameNight.deleted_at.is_(None),
        )
    )


def bucket_sums() -> tuple[Any, ...]:
    """Aggregates over monthly buckets, in the columns' order of :func:`line_counts`: counts
    and points added up, the lowest best total and the highest worst total."""
    return (
        func.sum(PlayerSummary.games),
        func.sum(PlayerSummary.wins),
        func.sum(PlayerSummary.shared_wins),
        func.sum(PlayerSummary.rounds),
        func.sum(PlayerSummary.points),
        func.sum(PlayerSummary.zero_rounds),
        func.min(PlayerSummary.best_total),
        func.max(PlayerSummary.worst_total),
    )


def line_counts() -> tuple[Any, ...]:
    """Aggregates over stored lines: games, wins, shared wins, rounds, points, zero rounds,
    best (lowest) and worst (highest) total — the columns of a summary, in that order."""
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


_COLUMNS = (
    "games",
    "wins",
    "shared_wins",
    "rounds",
    "points",
    "zero_rounds",
    "best_total",
    "worst_total",
)


def buckets_of(conn: Connection, game_ids: Iterable[int]) -> set[Bucket]:
    """The buckets the seats of these games are in, as the database holds them now (any
    status: a reopened or deleted game leaves buckets that must be refreshed)."""
    ids = list(game_ids)
    out: set[Bucket] = set()
    for start in range(0, len(ids), BATCH):
        rows = conn.execute(
            select(Seat.player_id, Game.set_size, GameNight.played_on)
            .select_from(Seat)
            .join(Game, Game.id == Seat.game_id)
            .join(GameNight, GameNight.id == Game.night_id)
            .where(Seat.game_id.in_(ids[start : start + BATCH]))
        )
        out.update((pid, size, month_of(day)) for pid, size, day in rows)
    return out


def refresh(session: Session, buckets: Iterable[Bucket]) -> None:
    """Recompute these buckets from the stored lines (one delete, one ``GROUP BY`` and one
    insert per month touched; players and set sizes of a month are refreshed as a cross
    product, which is exact because every bucket in it is recomputed), then the all-time
    totals of the players and set sizes touched (:func:`refresh_totals`). No commit."""
    per_month: dict[date, tuple[set[int], set[int]]] = defaultdict(lambda: (set(), set()))
    for pid, size, month in buckets:
        players, sizes = per_month[month]
        players.add(pid)
        sizes.add(size)
    for month, (players, sizes) in per_month.items():
        _refresh_month(session, month, players, sizes)
    touched_players = {pid for pid, _, _ in buckets}
    touched_sizes = {size for _, size, _ in buckets}
    # A pair can only change if both players sat at a changed game, and a changed game's seats
    # are all among the players touched: pairs with anyone else keep their totals.
    opponents = touched_players if len(touched_players) <= BATCH else None
    ids = sorted(touched_players)
    for start in range(0, len(ids), BATCH):
        chunk = set(ids[start : start + BATCH])
        refresh_totals(session.connection(), chunk, touched_sizes, opponents)


def refresh_totals(
    conn: Connection,
    players: set[int] | None,
    sizes: set[int] | None,
    opponents: set[int] | None = None,
) -> None:
    """Recompute the all-time totals of ``players`` × ``sizes`` from their monthly buckets,
    and the head-to-head totals of ``players`` × ``opponents`` from their monthly pairs
    (None: everyone, every set, every opponent). Exact for the whole cross product: each total
    in it is summed afresh; a total whose months are all gone is dropped. Call after the
    months are refreshed. No commit."""
    gone = delete(PlayerTotal)
    sums = select(PlayerSummary.player_id, PlayerSummary.set_size, *bucket_sums()).group_by(
        PlayerSummary.player_id, PlayerSummary.set_size
    )
    pair_gone = delete(PairTotal)
    pair_sums = select(
        PairSummary.player_id,
        PairSummary.opponent_id,
        func.sum(PairSummary.games),
        func.sum(PairSummary.ahead),
        func.sum(PairSummary.behind),
        func.sum(PairSummary.level),
    ).group_by(PairSummary.player_id, PairSummary.opponent_id)
    if players is not None:
        gone = gone.where(PlayerTotal.player_id.in_(players))
        sums = sums.where(PlayerSummary.player_id.in_(players))
        pair_gone = pair_gone.where(PairTotal.player_id.in_(players))
        pair_sums = pair_sums.where(PairSummary.player_id.in_(players))
    if opponents is not None:
        pair_gone = pair_gone.where(PairTotal.opponent_id.in_(opponents))
        pair_sums = pair_sums.where(PairSummary.opponent_id.in_(opponents))
    if sizes is not None:
        gone = gone.where(PlayerTotal.set_size.in_(sizes))
        sums = sums.where(PlayerSummary.set_size.in_(sizes))
    conn.execute(gone)
    conn.execute(insert(PlayerTotal).from_select(["player_id", "set_size", *_COLUMNS], sums))
    conn.execute(pair_gone)
    conn.execute(
        insert(PairTotal).from_select(
            ["player_id", "opponent_id", "games", "ahead", "behind", "level"], pair_sums
        )
    )


def not_indexed(column: Any) -> Any:
    """``column + 0``: the same value, but SQLite's planner cannot drive the query from the
    column's index. A month's (or a season's) lines must be found through the nights' date
    index; given the players' ``IN`` list (or one player), SQLite read every seat of those
    players instead, so refreshing a month cost time in proportion to the whole history
    (0.42 s instead of 0.01 s at 5,000 games; demo data of 50,000 games grew quadratically)."""
    return column + 0


def _refresh_month(
    session: Session, month: date, players: set[int] | None, sizes: set[int] | None
) -> None:
    conn = session.connection()
    gone = delete(PlayerSummary).where(PlayerSummary.month == month)
    stmt = live_lines(Seat.player_id, Game.set_size, *line_counts()).where(
        GameNight.played_on >= month, GameNight.played_on < next_month(month)
    )
    if players is not None:
        gone = gone.where(PlayerSummary.player_id.in_(players))
        stmt = stmt.where(not_indexed(Seat.player_id).in_(players))
    if sizes is not None:
        gone = gone.where(PlayerSummary.set_size.in_(sizes))
        stmt = stmt.where(Game.set_size.in_(sizes))
    conn.execute(gone)
    rows = [
        {
            "player_id": pid,
            "set_size": size,
            "month": month,
            **dict(zip(_COLUMNS, counts, strict=True)),
        }
        for pid, size, *counts in conn.execute(stmt.group_by(Seat.player_id, Game.set_size))
    ]
    if rows:
        conn.execute(insert(PlayerSummary), rows)
    _refresh_pairs(conn, month, players)


def _refresh_pairs(conn: Connection, month: date, players: set[int] | None) -> None:
    """Every head-to-head record of ``players`` (None: everyone) in ``month``, recomputed.
    A changed game's seats are all among the players refreshed, so both directions of each
    pair it touches are."""
    other = aliased(FinalStanding)
    other_seat = aliased(Seat)
    mine, theirs = FinalStanding.rank, other.rank
    stmt = (
        live_lines(
            Seat.player_id,
            other_seat.player_id,
            func.count(other.id),
            func.sum(case((mine < theirs, 1), else_=0)),
            func.sum(case((mine > theirs, 1), else_=0)),
            func.sum(case((mine == theirs, 1), else_=0)),
        )
        .join(other, and_(other.game_id == FinalStanding.game_id, other.id != FinalStanding.id))
        .join(other_seat, other_seat.id == other.seat_id)
        .where(
            GameNight.played_on >= month,
            GameNight.played_on < next_month(month),
            other_seat.player_id != Seat.player_id,
        )
        .group_by(Seat.player_id, other_seat.player_id)
    )
    gone = delete(PairSummary).where(PairSummary.month == month)
    if players is not None:
        stmt = stmt.where(not_indexed(Seat.player_id).in_(players))
        gone = gone.where(PairSummary.player_id.in_(players))
    conn.execute(gone)
    rows = [
        {
            "player_id": pid,
            "opponent_id": oid,
            "month": month,
            "games": games,
            "ahead": ahead,
            "behind": behind,
            "level": level,
        }
        for pid, oid, games, ahead, behind, level in conn.execute(stmt)
    ]
    if rows:
        conn.execute(insert(PairSummary), rows)


def rebuild_months(session: Session) -> None:
    """Recompute every monthly bucket and pair from the stored lines (one query per month with
    games; the backfill of migration ``c3a8f2e61d70``, which runs before the totals tables
    exist). No commit."""
    conn = session.connection()
    conn.execute(delete(PlayerSummary))
    conn.execute(delete(PairSummary))
    days = conn.execute(select(GameNight.played_on).distinct()).scalars()
    for month in sorted({month_of(day) for day in days}):
        _refresh_month(session, month, None, None)


def rebuild_all(session: Session) -> None:
    """Recompute every bucket from the stored lines, then every all-time total from the
    buckets. No commit."""
    rebuild_months(session)
    refresh_totals(session.connection(), None, None)
