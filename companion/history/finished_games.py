"""Final results of finished games, read from the stored standings.

The history pages need the standings of many games at once (a page of nights, a player's
record, the leaderboard). Each finished game's standings are decided once by the engine and
stored when the game changes (:mod:`companion.services.results`, table ``final_standings``),
so this module only reads rows: one query per call, nothing kept in a process's memory (every
app server sees the same results at once). The player of a line is read through its seat, so
merges move results with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, false, func, or_, select

from ..engine.reasons import DecidedAt
from ..extensions import db
from ..models import FinalStanding, Game, GameNight, PlayerSummary, Seat
from ..services.summaries import next_month
from ..vocab import GameStatus


class SeatResult(NamedTuple):
    """One player's result in one finished game (a named tuple: thousands are built per page).

    Attributes:
        game_id, player_id: the game and the player sitting (after merges, the kept player).
        rank: 1 for the winner(s); tied players share a rank (engine tie-breaks, RULES.md §8).
        shared: True when another player has the same rank (a shared place).
        total: the game total in points.
        rounds: scored rounds the player has a hand score in.
        zero_rounds: rounds scored 0 points (RULES.md §8).
        decided_by: the engine's tie-break step that separated this player from the one
            ranked just above (``""`` for the first line).
    """

    game_id: int
    player_id: int
    rank: int
    shared: bool
    total: int
    rounds: int
    zero_rounds: int
    decided_by: str


class GameResult(NamedTuple):
    """A finished game's final standings, best first (see :class:`SeatResult`)."""

    game_id: int
    played_on: date
    set_size: int
    seats: tuple[SeatResult, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """Player ids ranked first (more than one is a shared win)."""
        return tuple(s.player_id for s in self.seats if s.rank == 1)

    @property
    def decided_by(self) -> str:
        """The step that decided the winner: the second line's step, or ``lowest_total``
        when nobody else played, or ``unresolved_shared`` for a shared win."""
        return self.seats[1].decided_by if len(self.seats) > 1 else DecidedAt.LOWEST_TOTAL


def live_finished_games() -> Select[Any]:
    """``SELECT games.id`` of finished games that are not deleted, in nights not deleted."""
    return live_finished(Game.id)


def live_finished(*columns: Any) -> Select[Any]:
    """``SELECT columns`` over finished games that are not deleted, in nights not deleted
    (games joined to their nights)."""
    return (
        select(*columns)
        .select_from(Game)
        .join(GameNight, Game.night_id == GameNight.id)
        .where(
            Game.status == GameStatus.FINISHED,
            Game.deleted_at.is_(None),
            GameNight.deleted_at.is_(None),
        )
    )


@dataclass(frozen=True, slots=True)
class Filters:
    """Which finished games to look at (every field optional; all given must hold).

    Attributes:
        player_id: only games this player sat at.
        date_from, date_to: only nights played on these dates or between them (inclusive).
        set_size: only games with this set (6, 9, 12, 15, 18).
        game_ids: only these games (used by the nights list for one page).
        months: only nights played in these calendar months (their first days): a player's
            newest months, read from their monthly buckets, where their latest games are.
    """

    player_id: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    set_size: int | None = None
    game_ids: tuple[int, ...] | None = None
    months: tuple[date, ...] | None = None

    def apply(self, stmt: Select[Any]) -> Select[Any]:
        """``stmt`` (a select over games joined to their nights) narrowed to these filters."""
        if self.player_id is not None:
            stmt = stmt.where(Game.seats.any(Seat.player_id == self.player_id))
        if self.date_from is not None:
            stmt = stmt.where(GameNight.played_on >= self.date_from)
        if self.date_to is not None:
            stmt = stmt.where(GameNight.played_on <= self.date_to)
        if self.set_size is not None:
            stmt = stmt.where(Game.set_size == self.set_size)
        if self.game_ids is not None:
            stmt = stmt.where(Game.id.in_(self.game_ids))
        if self.months is not None:
            # As a list of night ids (the live nights of those months, found by the live
            # nights' date index): the planner then reads those nights' games only.
            stmt = stmt.where(Game.night_id.in_(nights_in(self.months)))
        return stmt


#: ranges in the statement of :func:`nights_in` (the last month repeated up to this many): one
#: statement whatever the number of months, compiled once per process (at warm-up), not once
#: per number of months by the first player page needing it
MONTH_SLOTS = 10


def nights_in(months: Sequence[date]) -> Select[Any]:
    """``SELECT game_nights.id`` of the live nights played in these calendar months."""
    months = sorted(months, reverse=True)
    months += months[-1:] * (MONTH_SLOTS - len(months))
    return select(GameNight.id).where(
        GameNight.deleted_at.is_(None),
        or_(
            false(),  # no months: no nights
            *(
                and_(GameNight.played_on >= month, GameNight.played_on < next_month(month))
                for month in months
            ),
        ),
    )


def newest_months(player_id: int, games: int) -> tuple[date, ...]:
    """The fewest newest calendar months holding ``player_id``'s ``games`` latest live finished
    games (all of them when they have fewer): their monthly buckets of every set, newest
    first (an index search on ``(player_id, month)``; at most ``games`` months, as each bucket
    holds at least one game)."""
    months: list[date] = []
    found = 0
    for month, count in db.session.execute(
        select(PlayerSummary.month, func.sum(PlayerSummary.games))
        .where(PlayerSummary.player_id == player_id)
        .group_by(PlayerSummary.month)
        .order_by(PlayerSummary.month.desc())
        .limit(games)
    ):
        months.append(month)
        found += int(count)
        if found >= games:
            break
    return tuple(months)


def finished_results(
    *,
    player_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    set_size: int | None = None,
    game_ids: Sequence[int] | None = None,
    limit: int | None = None,
) -> list[GameResult]:
    """Results of live finished games, newest night first, narrowed by :class:`Filters`
    (``limit``: only the newest that many games).

    Returns: one :class:`GameResult` per game with stored standings; one SQL query (the
    ``limit`` newest games' ids are its subquery), two with ``limit`` and ``player_id``: a
    player's latest games are looked for only in the newest months of their monthly buckets
    that hold that many, so the search reads those months' nights, not the whole history.
    """
    filters = Filters(
        player_id, date_from, date_to, set_size, tuple(game_ids) if game_ids is not None else None
    )
    order = (GameNight.played_on.desc(), Game.id.desc())
    if limit is not None and player_id is not None and not (date_from or date_to or set_size):
        filters = replace(filters, months=newest_months(player_id, limit))
    newest: Select[Any] | None = None
    if limit is not None:  # the newest games' ids, as a subquery of the same statement
        newest = filters.apply(live_finished_games()).order_by(*order).limit(limit)
        filters = Filters()
    stmt = filters.apply(
        live_finished(
            Game.id,
            GameNight.played_on,
            Game.set_size,
            Seat.player_id,
            FinalStanding.rank,
            FinalStanding.shared,
            FinalStanding.total,
            FinalStanding.rounds,
            FinalStanding.zero_rounds,
            FinalStanding.decided_by,
        )
        .join(FinalStanding, FinalStanding.game_id == Game.id)
        .join(Seat, Seat.id == FinalStanding.seat_id)
    ).order_by(*order, FinalStanding.line)
    if newest is not None:
        stmt = stmt.where(Game.id.in_(newest))
    out: list[GameResult] = []
    lines: list[SeatResult] = []
    current: tuple[int, date, int] | None = None
    for gid, played_on, size, pid, rank, shared, total, rounds, zeros, step in (
        db.session.connection().execute(stmt)  # Core rows: no ORM work per row
    ):
        if current is None or current[0] != gid:
            if current is not None:
                out.append(GameResult(*current, tuple(lines)))
            current, lines = (gid, played_on, size), []
        lines.append(SeatResult(gid, pid, rank, bool(shared), total, rounds, zeros, step))
    if current is not None:
        out.append(GameResult(*current, tuple(lines)))
    return out
