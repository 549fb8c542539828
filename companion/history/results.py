"""Final results of finished games, loaded in a few queries and decided by the engine.

The history pages need the standings of many games at once (a page of nights, a player's
record, the leaderboard). Building ORM objects for every hand of thousands of games is slow,
so this module reads plain tuples, gathers each seat's points per round, asks the engine for
the standings (house rules via :func:`companion.mapping.rules_of`), and memoises the
result in the app (``app.extensions``) per game id and version: the version
grows with every saved change to a game (optimistic locking in :class:`companion.models.Game`),
so a changed game is never served stale; and a memoised result is used only while the game's
seats (seat and player ids: merges), date and set still match.

The number of SQL queries per call is constant: one for the seats of the selected games, plus
at most two (house rules, hand scores) for games not yet in the memo.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from flask import current_app, has_app_context
from sqlalchemy import Select, func, select

from ..engine import RuleSet, standings
from ..extensions import db
from ..mapping import rules_of
from ..models import Game, GameNight, HandScore, Round, Seat

#: memo entries kept before the memo is cleared (one entry is one game, a few hundred bytes)
MEMO_LIMIT = 50_000
#: at most this many game ids go into one ``IN (...)`` list; more are loaded by the filter
IN_LIST_LIMIT = 500


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
        return self.seats[1].decided_by if len(self.seats) > 1 else "lowest_total"


#: what a memoised result must still match: (seat id, player id) pairs, date, set
_Shape = tuple[tuple[tuple[int, int], ...], date, int]


@dataclass(frozen=True, slots=True)
class _RulesRow:
    """The two columns :func:`companion.mapping.rules_of` reads from a game row."""

    rules: dict[str, Any]
    set_size: int


@lru_cache(maxsize=256)
def _rules(rules_json: str, set_size: int) -> RuleSet:
    """The game's RuleSet via :func:`companion.mapping.rules_of`, built (and validated) once
    per distinct house rules: thousands of games share a handful of rule sets."""
    return rules_of(_RulesRow(json.loads(rules_json), set_size))  # type: ignore[arg-type]


MEMO_KEY = "history_results_memo"
DERIVED_KEY = "history_derived_memo"
DERIVED_LIMIT = 64
T = TypeVar("T")
_memo_lock = threading.Lock()


def _memo() -> dict[tuple[int, int], tuple[_Shape, GameResult]]:
    """The current app's memo (one per app, so one per database)."""
    return current_app.extensions.setdefault(MEMO_KEY, {})


def clear_memo() -> None:
    """Forget the current app's memoised outcomes (e.g. after a bulk import that reuses ids);
    does nothing outside an app context."""
    if has_app_context():
        with _memo_lock:
            _memo().clear()
            current_app.extensions.pop(DERIVED_KEY, None)


def _remember(key: tuple[int, int], outcome: tuple[_Shape, GameResult]) -> None:
    memo = _memo()
    with _memo_lock:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = outcome


def live_finished_games() -> Select[Any]:
    """``SELECT games.id`` of finished games that are not deleted, in nights not deleted."""
    return _live_finished(Game.id)


def _live_finished(*columns: Any) -> Select[Any]:
    return (
        select(*columns)
        .join(GameNight, Game.night_id == GameNight.id)
        .where(
            Game.status == "finished",
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
    """

    player_id: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    set_size: int | None = None
    game_ids: tuple[int, ...] | None = None

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
        return stmt


def finished_results(
    *,
    player_id: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    set_size: int | None = None,
    game_ids: Sequence[int] | None = None,
) -> list[GameResult]:
    """Results of live finished games, newest night first, narrowed by :class:`Filters`.

    Returns: one :class:`GameResult` per game; a constant number of SQL queries (two, plus
    two for games not in the memo yet).
    """
    filters = Filters(
        player_id, date_from, date_to, set_size, tuple(game_ids) if game_ids is not None else None
    )
    games = filters.apply(_live_finished(Game.id, Game.version, Game.set_size, GameNight.played_on))
    ids = select(games.subquery().c.id)
    conn = db.session.connection()  # Core rows: no ORM work per row
    game_rows = conn.execute(games.order_by(GameNight.played_on.desc(), Game.id.desc())).all()
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for game_id, seat_id, pid in conn.execute(
        select(Seat.game_id, Seat.id, Seat.player_id)
        .where(Seat.game_id.in_(ids))
        .order_by(Seat.game_id, Seat.position)
    ):
        seats[game_id].append((seat_id, pid))
    memo = _memo()
    found: dict[int, GameResult] = {}
    missing: dict[int, tuple[int, _Shape]] = {}
    for game_id, version, size, played_on in game_rows:
        shape: _Shape = (tuple(seats[game_id]), played_on, size)
        hit = memo.get((game_id, version))
        if hit is not None and hit[0] == shape:
            found[game_id] = hit[1]
        else:
            missing[game_id] = (version, shape)
    if missing:
        for game_id, lines in _compute(list(missing), seats, ids).items():
            if game_id not in missing:  # computed along with the missing ones (a big batch)
                continue
            version, shape = missing[game_id]
            player_of = dict(shape[0])
            result = GameResult(
                game_id,
                shape[1],
                shape[2],
                tuple(
                    SeatResult(game_id, player_of[sid], rank, shared, total, n, zeros, step)
                    for sid, rank, shared, total, n, zeros, step in lines
                ),
            )
            _remember((game_id, version), (shape, result))
            found[game_id] = result
    return [found[row[0]] for row in game_rows if row[0] in found]


_Line = tuple[int, int, bool, int, int, int, str]


def _compute(
    missing: list[int], seats_by_game: dict[int, list[tuple[int, int]]], ids: Any
) -> dict[int, tuple[_Line, ...]]:
    """Load house rules and hand scores of ``missing`` games (two queries) and decide them:
    per game, (seat id, rank, shared, total, rounds, zero rounds, step), best first.

    The scores per seat are gathered as :func:`companion.mapping.round_scores` does (scored
    rounds in order, a missing hand left out) but from plain tuples, since this runs over
    thousands of games; tests/history/test_stats.py checks both give the same standings.
    """
    # Too many for one IN list: load every selected game instead (still one query).
    small = len(missing) <= IN_LIST_LIMIT
    which = Game.id.in_(missing) if small else Game.id.in_(ids)
    conn = db.session.connection()  # Core rows: no ORM work per row
    rules: dict[int, RuleSet] = {}
    scores: dict[int, dict[int, list[int]]] = {}
    for game_id, rules_data, size in conn.execute(
        select(Game.id, Game.rules, Game.set_size).where(which)
    ):
        rules[game_id] = _rules(json.dumps(rules_data, sort_keys=True), size)
        scores[game_id] = {sid: [] for sid, _pid in seats_by_game.get(game_id, ())}
    for game_id, seat_id, points in conn.execute(
        select(Round.game_id, HandScore.seat_id, HandScore.points)
        .join(HandScore, HandScore.round_id == Round.id)
        .where(Round.status == "scored", Round.game_id.in_(select(Game.id).where(which)))
        .order_by(Round.game_id, Round.number)
    ).all():
        seat_scores = scores.get(game_id, {}).get(seat_id)
        if seat_scores is not None:
            seat_scores.append(points)
    return {gid: decide_game(scores[gid], rules[gid]) for gid in scores}


def decide_game(scores: dict[int, list[int]], rules: RuleSet) -> tuple[_Line, ...]:
    """The engine's standings for seat id -> points per scored round, as result lines:
    (seat id, rank, shared, total, rounds, zero rounds, step), best first (RULES.md §8)."""
    lines = standings({str(sid): pts for sid, pts in scores.items()}, rules)
    rank_counts: dict[int, int] = defaultdict(int)
    for st in lines:
        rank_counts[st.rank] += 1
    return tuple(
        (
            int(st.record.player),
            st.rank,
            rank_counts[st.rank] > 1,
            st.record.total,
            st.record.zero_rounds + len(st.record.nonzero),
            st.record.zero_rounds,
            st.decided_by,
        )
        for st in lines
    )


def fingerprint(filters: Filters) -> tuple[Any, ...]:
    """A cheap summary (two aggregate queries, no rows) of the games ``filters`` select: it
    changes whenever a game is added, deleted, restored or changed (its version grows) or a
    seat moves to another player (a merge), so results derived from those games can be
    memoised under it."""
    games = filters.apply(
        _live_finished(
            func.count(Game.id), func.sum(Game.id), func.sum(Game.version), func.max(Game.id)
        )
    )
    ids = select(filters.apply(live_finished_games()).subquery().c.id)
    seats = select(func.count(Seat.id), func.sum(Seat.id * Seat.player_id)).where(
        Seat.game_id.in_(ids)
    )
    return (*db.session.execute(games).one(), *db.session.execute(seats).one())


def memoised(key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``compute()``, kept in the app under ``key`` (include a :func:`fingerprint` in it);
    the last :data:`DERIVED_LIMIT` keys are kept."""
    store: dict[tuple[Any, ...], Any] = current_app.extensions.setdefault(DERIVED_KEY, {})
    if key in store:
        return store[key]
    value = compute()
    with _memo_lock:
        if len(store) >= DERIVED_LIMIT:
            store.clear()
        store[key] = value
    return value
