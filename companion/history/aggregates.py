"""Player records from stored totals, summaries and standings, aggregated in SQL (RULES.md §8).

Without a date filter (the default leaderboard, a player's record and head-to-head) they read
the all-time totals of :mod:`companion.services.summaries`: one row per player and set size,
one per pair of players, so they cost the same at 500 or 50,000 games and for a month or a
century of history. A date filter adds up the per-player buckets (one row per player, set size
and month) of the whole months inside it, so its cost grows with the months in the filter, not
the history; only the days of a partly covered first or last month are read from the per-game
lines of ``final_standings``. The definitions are those of :mod:`.stats` (tests check they
agree). Units: points, games, rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Select, func, select

from ..extensions import db
from ..models import (
    FinalStanding,
    Game,
    GameNight,
    PairTotal,
    PlayerSummary,
    PlayerTotal,
    Seat,
)
from ..services.summaries import bucket_sums, line_counts, month_of, next_month
from .finished_games import Filters, live_finished
from .stats import HeadToHead, PlayerStats, rank_players


def _lines(filters: Filters, *columns: Any) -> Select[Any]:
    """``columns`` over the stored lines of live finished games narrowed by ``filters``."""
    return filters.apply(
        live_finished(*columns)
        .join(FinalStanding, FinalStanding.game_id == Game.id)
        .join(Seat, Seat.id == FinalStanding.seat_id)
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


def _combine(parts: Iterable[PlayerStats]) -> dict[int, PlayerStats]:
    """Player id -> the sum of their records (counts added, lowest best, highest worst)."""
    out: dict[int, PlayerStats] = {}
    for part in parts:
        acc = out.get(part.player_id)
        if acc is None:
            out[part.player_id] = replace(part)  # a copy: the parts stay as read
            continue
        acc.games += part.games
        acc.wins += part.wins
        acc.shared_wins += part.shared_wins
        acc.rounds += part.rounds
        acc.points += part.points
        acc.zero_rounds += part.zero_rounds
        if part.best_total is not None and (
            acc.best_total is None or part.best_total < acc.best_total
        ):
            acc.best_total = part.best_total
        if part.worst_total is not None and (
            acc.worst_total is None or part.worst_total > acc.worst_total
        ):
            acc.worst_total = part.worst_total
    return out


def _whole_months(start: date | None, end: date | None) -> tuple[date | None, date | None]:
    """The first day of the first month wholly inside ``start..end`` and the first day after
    the last one (None: unbounded on that side)."""
    first = start if start is None or start.day == 1 else next_month(start)
    after = None if end is None else month_of(end + timedelta(days=1))
    return first, after


def _bucket_rows(filters: Filters, first: date | None, after: date | None) -> list[PlayerStats]:
    stmt = select(PlayerSummary.player_id, *bucket_sums()).group_by(PlayerSummary.player_id)
    if first is not None:
        stmt = stmt.where(PlayerSummary.month >= first)
    if after is not None:
        stmt = stmt.where(PlayerSummary.month < after)
    if filters.set_size is not None:
        stmt = stmt.where(PlayerSummary.set_size == filters.set_size)
    if filters.player_id is not None:
        stmt = stmt.where(PlayerSummary.player_id == filters.player_id)
    return [_stats(row[0], row[1:]) for row in db.session.execute(stmt)]


def _total_rows(filters: Filters) -> list[tuple[int, PlayerStats]]:
    """(set size, record) per player and set size from the all-time totals (``filters``'
    dates are ignored: the caller reads these only without dates)."""
    stmt = select(
        PlayerTotal.player_id,
        PlayerTotal.set_size,
        PlayerTotal.games,
        PlayerTotal.wins,
        PlayerTotal.shared_wins,
        PlayerTotal.rounds,
        PlayerTotal.points,
        PlayerTotal.zero_rounds,
        PlayerTotal.best_total,
        PlayerTotal.worst_total,
    )
    if filters.set_size is not None:
        stmt = stmt.where(PlayerTotal.set_size == filters.set_size)
    if filters.player_id is not None:
        stmt = stmt.where(PlayerTotal.player_id == filters.player_id)
    return [(row[1], _stats(row[0], row[2:])) for row in db.session.execute(stmt)]


def _line_rows(filters: Filters) -> list[PlayerStats]:
    stmt = _lines(filters, Seat.player_id, *line_counts()).group_by(Seat.player_id)
    if filters.player_id is not None:
        stmt = stmt.where(Seat.player_id == filters.player_id)
    return [_stats(row[0], row[1:]) for row in db.session.execute(stmt)]


def records(filters: Filters) -> dict[int, PlayerStats]:
    """Player id -> record over the live finished games narrowed by ``filters`` (``game_ids``
    is not supported): all-time totals without dates; with dates, buckets for whole months and
    lines for the days of partial edge months."""
    if filters.date_to == date.max:  # a season with no end runs to the last day there is,
        filters = replace(filters, date_to=None)  # which has no day after it
    if filters.date_from is None and filters.date_to is None:
        return _combine(stats for _, stats in _total_rows(filters))
    first, after = _whole_months(filters.date_from, filters.date_to)
    if first is not None and after is not None and first >= after:
        return _combine(_line_rows(filters))  # no whole month inside: at most two months' lines
    parts = _bucket_rows(filters, first, after)
    if first is not None and first != filters.date_from:  # a partial first month (from a date)
        parts += _line_rows(replace(filters, date_to=first - timedelta(days=1)))
    if filters.date_to is not None and after != filters.date_to + timedelta(days=1):
        parts += _line_rows(replace(filters, date_from=after))  # a partial last month
    return _combine(parts)


def leaderboard_rows(filters: Filters) -> list[PlayerStats]:
    """Every player's record over the filtered games, best first."""
    return rank_players(records(filters).values())


def player_record(player_id: int) -> PlayerStats:
    """``player_id``'s record over every live finished game, with the games of the best and
    worst totals (on equal totals the most recent game, as :mod:`.stats` does): the player's
    all-time totals per set, the newest month holding each extreme total among the player's
    buckets (an index seek on ``(player_id, best_total, month)``, and on the worst), and
    the lines of that month's games (three queries)."""
    per_size = _total_rows(Filters(player_id=player_id))
    stats = _combine(part for _, part in per_size).get(player_id) or PlayerStats(player_id)
    if not stats.games:
        return stats

    # The newest month holding each extreme (any set: a bucket whose best or worst equals the
    # player's holds such a game): one index seek each, on (player_id, best_total, month) and
    # (player_id, worst_total, month), however many months the history spans.
    def newest_month(column: Any, total: int | None) -> Any:
        return (
            select(func.max(PlayerSummary.month))
            .where(PlayerSummary.player_id == player_id, column == total)
            .scalar_subquery()
        )

    best_month, worst_month = db.session.execute(
        select(
            newest_month(PlayerSummary.best_total, stats.best_total),
            newest_month(PlayerSummary.worst_total, stats.worst_total),
        )
    ).one()
    # Those months' nights by the live nights' date index (Filters.months), then the lines of
    # the player's games there with either total: a few nights' games, however long the
    # history. The player's own line is picked here, not in SQL: with ``seats.player_id = ?``
    # the planner would start from every seat the player ever had.
    lines = db.session.execute(
        _lines(
            Filters(player_id, months=tuple({best_month, worst_month})),
            Game.id,
            GameNight.played_on,
            FinalStanding.total,
            Seat.player_id,
        )
        .where(FinalStanding.total.in_({stats.best_total, stats.worst_total}))
        .order_by(GameNight.played_on.desc(), Game.id.desc())
    ).all()
    newest_first = [(gid, day, total) for gid, day, total, pid in lines if pid == player_id]

    def newest(month: date, total: int | None) -> int | None:
        return next(
            (gid for gid, day, t in newest_first if t == total and month_of(day) == month), None
        )

    stats.best_game_id = newest(best_month, stats.best_total)
    stats.worst_game_id = newest(worst_month, stats.worst_total)
    return stats


def head_to_head_rows(player_id: int) -> list[HeadToHead]:
    """Every opponent of ``player_id`` in live finished games with the head-to-head record,
    most frequent first, then by opponent id (one query over the player's all-time pairs)."""
    stmt = select(
        PairTotal.opponent_id, PairTotal.games, PairTotal.ahead, PairTotal.behind, PairTotal.level
    ).where(PairTotal.player_id == player_id)
    rows = [
        HeadToHead(pid, int(games), int(ahead), int(behind), int(level))
        for pid, games, ahead, behind, level in db.session.execute(stmt)
    ]
    return sorted(rows, key=lambda h: (-h.games, h.opponent_id))
