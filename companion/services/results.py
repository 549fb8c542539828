"""Stored results of finished games (RULES.md §8): decided once, when the game changes.

Each finished game's final standings (rank, shared place, total, rounds, zero rounds, best
round, the tie-break step) are kept in :class:`companion.models.FinalStanding`, one row per
seat, so the history pages read rows and SQL aggregates instead of asking the engine about every
game on every worker's first request, and every app server sees the same results.

When they are written:

* **ORM changes** (a round saved, corrected or undone, a game finished, reopened or merged,
  an import): :func:`install` hooks the session; any game whose rows (game, seats, rounds,
  hands) are flushed in a transaction is decided again just before that transaction commits,
  in the same transaction, so results are never stale and never half-written.
* **Bulk inserts** (demo data, the migration's backfill) call :func:`record_games` with the
  new game ids (a constant number of queries per 500 games).

Either way the per-player summaries the leaderboard and player pages read
(:mod:`.summaries`) are refreshed for the buckets the changed games were in before (read just
before the flush that changes them) and are in after, and the skill ratings
(:mod:`.ratings`) are brought up to date from the earliest of those games in order of play:
this is the one place where anything that changes the past (a correction, an undo, a delete
or restore, an import, a merge of players) reaches the ratings.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import delete, event, insert, select
from sqlalchemy.orm import Session

from ..engine import RuleSet, standings
from ..mapping import round_scores, rules_of
from ..models import FinalStanding, Game, GameNight, HandScore, Round, Seat
from ..vocab import GameStatus, RoundStatus
from . import ratings, summaries

#: games decided per batch in :func:`record_games` (one ``IN (...)`` list per query)
BATCH = 500
_PENDING = "results_pending_games"
_STALE = "results_stale_buckets"
_SEEN = "results_seen_game_ids"


@dataclass(frozen=True, slots=True)
class Line:
    """One seat's line of a game's final standings, best first (RULES.md §8).

    Attributes:
        seat_id: the seat.
        rank: 1 for the winner(s); tied seats share a rank.
        shared: another seat has the same rank.
        total: the game total in points.
        rounds: scored rounds with a hand score for this seat.
        zero_rounds: rounds scored 0 points.
        best_round: the lowest non-zero round in points (None when every round was 0).
        decided_by: the tie-break step separating this seat from the line above (``""`` first).
    """

    seat_id: int
    rank: int
    shared: bool
    total: int
    rounds: int
    zero_rounds: int
    best_round: int | None
    decided_by: str


def decide(scores: Mapping[int, Sequence[int]], rules: RuleSet) -> tuple[Line, ...]:
    """The engine's standings for seat id -> points per scored round, best first (§8)."""
    lines = standings({str(sid): pts for sid, pts in scores.items()}, rules)
    per_rank: dict[int, int] = defaultdict(int)
    for st in lines:
        per_rank[st.rank] += 1
    return tuple(
        Line(
            int(st.record.player),
            st.rank,
            per_rank[st.rank] > 1,
            st.record.total,
            st.record.zero_rounds + len(st.record.nonzero),
            st.record.zero_rounds,
            min(st.record.nonzero) if st.record.nonzero else None,
            st.decided_by,
        )
        for st in lines
    )


def _rows(game_id: int, lines: Iterable[Line]) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "seat_id": ln.seat_id,
            "line": i,
            "rank": ln.rank,
            "shared": ln.shared,
            "total": ln.total,
            "rounds": ln.rounds,
            "zero_rounds": ln.zero_rounds,
            "best_round": ln.best_round,
            "decided_by": ln.decided_by,
        }
        for i, ln in enumerate(lines)
    ]


def record_game(session: Session, game: Game) -> None:
    """Replace ``game``'s stored standings: decided from its loaded rows when it is finished,
    none otherwise (an undo can reopen a game). No commit."""
    session.execute(delete(FinalStanding).where(FinalStanding.game_id == game.id))
    if game.status != GameStatus.FINISHED:
        return
    scores = {seat.id: pts for seat, pts in round_scores(game).items()}
    rows = _rows(game.id, decide(scores, rules_of(game)))
    if rows:
        session.execute(insert(FinalStanding), rows)


@dataclass(frozen=True, slots=True)
class _RulesRow:
    """The two columns :func:`companion.mapping.rules_of` reads from a game row."""

    rules: dict[str, Any]
    set_size: int


@lru_cache(maxsize=256)
def _rules(rules_json: str, set_size: int) -> RuleSet:
    """A game's RuleSet, built (and validated) once per distinct house rules."""
    return rules_of(_RulesRow(json.loads(rules_json), set_size))  # type: ignore[arg-type]


def record_games(session: Session, game_ids: Iterable[int], *, summarise: bool = True) -> int:
    """Decide and store the standings of these games (finished ones; others get none) from
    plain rows, :data:`BATCH` games per four queries, then refresh the player summaries of
    their buckets (unless ``summarise`` is False). Returns the games stored. No commit."""
    ids = list(game_ids)
    stored = 0
    for start in range(0, len(ids), BATCH):
        stored += _record_batch(session, ids[start : start + BATCH])
    if summarise:  # new games (demo data, import): their buckets now are all they touch
        summaries.refresh(session, summaries.buckets_of(session.connection(), ids))
        ratings.update(session, ids)
    return stored


def _record_batch(session: Session, ids: list[int]) -> int:
    session.execute(delete(FinalStanding).where(FinalStanding.game_id.in_(ids)))
    conn = session.connection()  # Core rows: no ORM work per row
    rules: dict[int, RuleSet] = {}
    for game_id, data, size in conn.execute(
        select(Game.id, Game.rules, Game.set_size).where(
            Game.id.in_(ids), Game.status == GameStatus.FINISHED
        )
    ):
        rules[game_id] = _rules(json.dumps(data, sort_keys=True), size)
    scores: dict[int, dict[int, list[int]]] = {gid: {} for gid in rules}
    for game_id, seat_id in conn.execute(
        select(Seat.game_id, Seat.id).where(Seat.game_id.in_(list(rules))).order_by(Seat.position)
    ):
        scores[game_id][seat_id] = []
    for game_id, seat_id, points in conn.execute(
        select(Round.game_id, HandScore.seat_id, HandScore.points)
        .join(HandScore, HandScore.round_id == Round.id)
        .where(Round.status == RoundStatus.SCORED, Round.game_id.in_(list(rules)))
        .order_by(Round.game_id, Round.number)
    ):
        seat_scores = scores[game_id].get(seat_id)
        if seat_scores is not None:
            seat_scores.append(points)
    rows = [row for gid in rules for row in _rows(gid, decide(scores[gid], rules[gid]))]
    if rows:
        session.execute(insert(FinalStanding), rows)
    return len(rules)


def record_all(session: Session) -> int:
    """Store the standings of every finished game (the standings migration's backfill, which
    runs before the summaries table exists; :func:`.summaries.rebuild_all` backfills those).
    No commit."""
    ids = session.scalars(
        select(Game.id).where(Game.status == GameStatus.FINISHED).order_by(Game.id)
    )
    return record_games(session, list(ids), summarise=False)


# --- keeping them current on every ORM change --------------------------------------------------


def _games_of(obj: object) -> list[Game]:
    if isinstance(obj, Game):
        return [obj]
    if isinstance(obj, GameNight):  # deleting or restoring a night drops or brings its games
        return list(obj.games)
    if isinstance(obj, Seat | Round):
        return [obj.game] if obj.game is not None else []
    if isinstance(obj, HandScore):
        rnd = obj.round
        return [rnd.game] if rnd is not None and rnd.game is not None else []
    return []


def _collect(session: Session, flush_context: Any, instances: Any) -> None:
    """``before_flush``: remember the games whose rows are about to change."""
    pending: set[Game] = session.info.setdefault(_PENDING, set())
    seen: set[int] = session.info.setdefault(_SEEN, set())
    with session.no_autoflush:
        for obj in (*session.new, *session.dirty, *session.deleted):
            pending.update(_games_of(obj))
    # The buckets these games are in before this flush changes them (a merge moves a seat to
    # another player; the old player's bucket must lose the game).
    fresh = {g.id for g in pending if g.id is not None and g.id not in seen}
    if fresh:
        seen.update(fresh)
        stale: set[summaries.Bucket] = session.info.setdefault(_STALE, set())
        stale.update(summaries.buckets_of(session.connection(), fresh))


def _store_pending(session: Session) -> None:
    """``before_commit``: decide the remembered games again, in the committing transaction."""
    if session.new or session.dirty or session.deleted:
        session.flush()  # the transaction's own changes first: that collects their games
    pending: set[Game] = session.info.pop(_PENDING, set())
    stale: set[summaries.Bucket] = session.info.pop(_STALE, set())
    session.info.pop(_SEEN, None)
    recorded = []
    for game in pending:
        if game.id is not None and game not in session.deleted and game in session:
            record_game(session, game)
            recorded.append(game.id)
    buckets = stale | summaries.buckets_of(session.connection(), recorded)
    if buckets:
        summaries.refresh(session, buckets)
    # Every game the transaction touched, kept or deleted: ratings replay from the earliest.
    ratings.update(session, [game.id for game in pending if game.id is not None])


def _forget(session: Session, *args: Any) -> None:
    """After a commit or a rollback nothing is pending."""
    for key in (_PENDING, _STALE, _SEEN):
        session.info.pop(key, None)


_installed = False


def install() -> None:
    """Hook every ORM session (once per process) so finished games' standings are stored
    whenever their rows change (see the module docstring)."""
    global _installed
    if _installed:
        return
    event.listen(Session, "before_flush", _collect)
    event.listen(Session, "before_commit", _store_pending)
    event.listen(Session, "after_commit", _forget)
    event.listen(Session, "after_rollback", _forget)
    _installed = True
