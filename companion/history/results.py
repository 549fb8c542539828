"""Final results of finished games, loaded in a few queries and decided by the engine.

The history pages need the standings of many games at once (a page of nights, a player's
record, the leaderboard). Building ORM objects for every hand of thousands of games is slow,
so this module reads plain tuples, hands them to :func:`companion.mapping.standings_of` (the
one place that turns rows into engine values) through light stand-in objects, and memoises the
outcome in the app (``app.extensions``) per game id, version and creation time: the version
grows with every saved change to a game (optimistic locking in :class:`companion.models.Game`),
so a changed game is never served stale; the creation time tells a reused id apart; and seats
are joined to players afresh on every call, so merging players needs no invalidation.

The number of SQL queries per call is constant: one for the seats of the selected games, plus
at most two (house rules, hand scores) for games not yet in the memo.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import Select, select

from ..extensions import db
from ..mapping import standings_of
from ..models import Game, GameNight, HandScore, Round, Seat

#: memo entries kept before the memo is cleared (one entry is one game, a few hundred bytes)
MEMO_LIMIT = 50_000
#: at most this many game ids go into one ``IN (...)`` list; more are loaded by the filter
IN_LIST_LIMIT = 500


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's result in one finished game.

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


@dataclass(frozen=True, slots=True)
class GameResult:
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
        return self.seats[1].decided_by if len(self.seats) > 1 else "lowest_total"


@dataclass(frozen=True, slots=True)
class _Outcome:
    """Memoised engine result of one game, by seat id: (rank, shared, total, rounds, zeros,
    decided_by), best first."""

    lines: tuple[tuple[int, int, bool, int, int, int, str], ...]


# Light stand-ins with the attributes mapping.standings_of reads; eq=False keeps them
# hashable by identity, as mapping uses seats as dict keys.
@dataclass(eq=False, slots=True)
class _SeatView:
    id: int


@dataclass(eq=False, slots=True)
class _HandView:
    seat_id: int
    points: int


@dataclass(eq=False, slots=True)
class _RoundView:
    status: str
    hands: list[_HandView] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class _GameView:
    rules: dict[str, Any]
    set_size: int
    seats: list[_SeatView] = field(default_factory=list)
    rounds: list[_RoundView] = field(default_factory=list)


MEMO_KEY = "history_results_memo"
_memo_lock = threading.Lock()


def _memo() -> dict[tuple[int, Any], _Outcome]:
    """The current app's memo (one per app, so one per database)."""
    return current_app.extensions.setdefault(MEMO_KEY, {})


def clear_memo() -> None:
    """Forget the current app's memoised outcomes (e.g. after a bulk import that reuses ids);
    does nothing outside an app context."""
    if has_app_context():
        with _memo_lock:
            _memo().clear()


def _remember(key: tuple[int, Any], outcome: _Outcome) -> None:
    memo = _memo()
    with _memo_lock:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = outcome


def live_finished_games() -> Select[Any]:
    """``SELECT games.id`` of finished games that are not deleted, in nights not deleted."""
    return (
        select(Game.id)
        .join(GameNight, Game.night_id == GameNight.id)
        .where(
            Game.status == "finished",
            Game.deleted_at.is_(None),
            GameNight.deleted_at.is_(None),
        )
    )


def finished_results(
    *,
    player_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    set_size: int | None = None,
    game_ids: Sequence[int] | None = None,
) -> list[GameResult]:
    """Results of live finished games, newest night first, optionally filtered.

    Args:
        player_id: only games this player sat at.
        date_from, date_to: only nights played on these dates or between them (inclusive).
        set_size: only games with this set (6, 9, 12, 15, 18).
        game_ids: only these games (used by the nights list for one page).
    Returns: one :class:`GameResult` per game; constant number of SQL queries (at most 3).
    """
    games = live_finished_games()
    if player_id is not None:
        games = games.where(Game.seats.any(Seat.player_id == player_id))
    if date_from is not None:
        games = games.where(GameNight.played_on >= date_from)
    if date_to is not None:
        games = games.where(GameNight.played_on <= date_to)
    if set_size is not None:
        games = games.where(Game.set_size == set_size)
    if game_ids is not None:
        games = games.where(Game.id.in_(list(game_ids)))
    ids = games.subquery()
    rows = db.session.execute(
        select(
            Seat.id,
            Seat.game_id,
            Seat.player_id,
            Game.version,
            Game.created_at,
            Game.set_size,
            GameNight.played_on,
        )
        .join(Game, Seat.game_id == Game.id)
        .join(GameNight, Game.night_id == GameNight.id)
        .where(Seat.game_id.in_(select(ids.c.id)))
        .order_by(GameNight.played_on.desc(), Game.id.desc(), Seat.position)
    ).all()
    seats_by_game: dict[int, list[tuple[int, int]]] = defaultdict(list)
    info: dict[int, tuple[int, int, date]] = {}
    for seat_id, game_id, pid, version, created, size, played_on in rows:
        seats_by_game[game_id].append((seat_id, pid))
        info[game_id] = ((version, created), size, played_on)
    outcomes = _outcomes({gid: v[0] for gid, v in info.items()}, seats_by_game, ids)
    out = []
    for game_id, (_version, size, played_on) in info.items():
        player_of = dict(seats_by_game[game_id])
        out.append(
            GameResult(
                game_id,
                played_on,
                size,
                tuple(
                    SeatResult(game_id, player_of[sid], rank, shared, total, n, zeros, step)
                    for sid, rank, shared, total, n, zeros, step in outcomes[game_id].lines
                ),
            )
        )
    return out


def _outcomes(
    versions: dict[int, Any], seats_by_game: dict[int, list[tuple[int, int]]], ids: Any
) -> dict[int, _Outcome]:
    """Outcome per game id, from the memo or computed by the engine for the missing ones."""
    found: dict[int, _Outcome] = {}
    missing: list[int] = []
    memo = _memo()
    for game_id, version in versions.items():
        outcome = memo.get((game_id, version))
        if outcome is None:
            missing.append(game_id)
        else:
            found[game_id] = outcome
    if missing:
        for game_id, outcome in _compute(missing, seats_by_game, ids).items():
            _remember((game_id, versions[game_id]), outcome)
            found[game_id] = outcome
    return found


def _compute(
    missing: list[int], seats_by_game: dict[int, list[tuple[int, int]]], ids: Any
) -> dict[int, _Outcome]:
    """Load house rules and hand scores of ``missing`` games (two queries) and decide them."""
    # Too many for one IN list: load every selected game instead (still one query).
    small = len(missing) <= IN_LIST_LIMIT
    which = Game.id.in_(missing) if small else Game.id.in_(select(ids.c.id))
    views: dict[int, _GameView] = {}
    for game_id, rules, size in db.session.execute(
        select(Game.id, Game.rules, Game.set_size).where(which)
    ):
        view = _GameView(rules, size)
        view.seats = [_SeatView(sid) for sid, _pid in seats_by_game.get(game_id, ())]
        views[game_id] = view
    current: tuple[int, int] | None = None
    for game_id, number, seat_id, points in db.session.execute(
        select(Round.game_id, Round.number, HandScore.seat_id, HandScore.points)
        .join(HandScore, HandScore.round_id == Round.id)
        .where(Round.status == "scored", Round.game_id.in_(select(Game.id).where(which)))
        .order_by(Round.game_id, Round.number)
    ):
        view = views.get(game_id)
        if view is None:
            continue
        if current != (game_id, number):
            view.rounds.append(_RoundView("scored"))
            current = (game_id, number)
        view.rounds[-1].hands.append(_HandView(seat_id, points))
    return {gid: _decide(view) for gid, view in views.items()}


def _decide(view: _GameView) -> _Outcome:
    lines = standings_of(view)  # type: ignore[arg-type]  # duck-typed rows, see _GameView
    rank_counts: dict[int, int] = defaultdict(int)
    for _seat, standing in lines:
        rank_counts[standing.rank] += 1
    return _Outcome(
        tuple(
            (
                seat.id,
                st.rank,
                rank_counts[st.rank] > 1,
                st.record.total,
                st.record.zero_rounds + len(st.record.nonzero),
                st.record.zero_rounds,
                st.decided_by,
            )
            for seat, st in lines
        )
    )


def results_by_game(results: Iterable[GameResult]) -> dict[int, GameResult]:
    """Index results by game id."""
    return {r.game_id: r for r in results}
