"""Skill ratings from finished games: openskill's Weng-Lin Plackett-Luce model, its defaults.

Every finished game, in order of play (the night's date, then the game's start, then its id),
updates its players' ratings from its final places (:class:`companion.models.FinalStanding`
ranks; tied seats share a place). A rating is a skill estimate ``mu`` with an uncertainty
``sigma`` (rating points; a new player starts at 25 and 8.33); players are ranked by the
conservative ``ordinal = mu - 3 sigma``, which only rises once the model is sure.

Stored, never recomputed per page view: one :class:`~companion.models.RatingStep` per seat of
each rated game and one :class:`~companion.models.PlayerRating` (the latest) per player.

How they are kept: :mod:`companion.services.results` calls :func:`update` with the games
whose rows changed in a transaction (a round saved or corrected, an undo, a game finished,
reopened or deleted, a night deleted or restored, a merge moving seats, an import, demo data).
:func:`update` replays from the earliest place in the order of play those games held before
or hold now: the steps from there on are deleted, each affected player's rating is taken
back to their last step before it, and the games from there on are rated again in order. A
newly finished latest game is therefore one update; a change to the past is a deterministic
partial replay that equals a full replay from scratch (:func:`rebuild_all`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from itertools import groupby
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, delete, func, insert, select, tuple_
from sqlalchemy.orm import Session

from ..models import FinalStanding, Game, GameNight, Player, PlayerRating, RatingStep, Seat
from ..vocab import GameStatus
from .summaries import live_lines

#: what ``GET /api/v1/ratings`` names as the model
MODEL_NAME = "openskill PlackettLuce"
#: a player with fewer rated games than this is marked provisional (the rating still moves a lot)
PROVISIONAL_GAMES = 5
#: ids per ``IN (...)`` list and rows per bulk insert
BATCH = 500

#: a game's place in the order of play: (night's date, game's start, game id)
Key = tuple[date, datetime, int]


@lru_cache(maxsize=1)
def model() -> PlackettLuce:
    """The rating model: openskill's Plackett-Luce with its default parameters (mu 25,
    sigma 25/3, beta 25/6, tau 25/300)."""
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: ``mu`` (skill estimate), ``sigma`` (its uncertainty) and
    ``ordinal`` (``mu - 3 sigma``, what ranks) in rating points; ``games`` rated games."""

    player_id: int
    mu: float
    sigma: float
    ordinal: float
    games: int

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` rated games: the rating is still a guess."""
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Step:
    """A player's rating just after one game: the game, its night's date and the rating."""

    game_id: int
    played_on: date
    rating: Rating


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as the model sees it: its place in the order of play and each
    player's final place (1 = winner; tied players share a place), in standings order."""

    key: Key
    places: tuple[tuple[int, int], ...]  # (player id, place)


def rate_games(
    games: Iterable[RatedGame], start: dict[int, Rating] | None = None
) -> Iterator[tuple[RatedGame, tuple[Rating, ...]]]:
    """Rate ``games`` in the given order, from ``start`` ratings (players not in it are new).
    Yields each game with its players' ratings just after it, in the game's order. Games
    with fewer than two players are skipped (nobody to finish ahead of)."""
    m = model()
    state = dict(start or {})
    for game in games:
        if len(game.places) < 2:
            continue
        teams = []
        for pid, _place in game.places:
            old = state.get(pid)
            teams.append([m.rating() if old is None else m.rating(mu=old.mu, sigma=old.sigma)])
        new = m.rate(teams, ranks=[place for _pid, place in game.places])
        after = []
        for (pid, _place), (rated,) in zip(game.places, new, strict=True):
            games_before = state[pid].games if pid in state else 0
            state[pid] = Rating(pid, rated.mu, rated.sigma, rated.ordinal(), games_before + 1)
            after.append(state[pid])
        yield game, tuple(after)


# --- keeping them stored -----------------------------------------------------------------------


def _order() -> tuple[Any, ...]:
    return (GameNight.played_on, Game.created_at, Game.id)


def _step_order() -> Any:
    return tuple_(RatingStep.played_on, RatingStep.game_order, RatingStep.game_id)


def live_games(conn: Connection, since: Key | None = None) -> Iterator[RatedGame]:
    """The live finished games from ``since`` on (all when None), in order of play, with
    their players' final places as stored."""
    query = live_lines(*_order(), Seat.player_id, FinalStanding.rank)
    if since is not None:
        query = query.where(tuple_(*_order()) >= since)
    rows = conn.execute(query.order_by(*_order(), FinalStanding.line))
    for key, lines in groupby(rows, key=lambda r: (r[0], r[1], r[2])):
        yield RatedGame(key, tuple((pid, rank) for *_k, pid, rank in lines))


def _keys(conn: Connection, game_ids: Sequence[int]) -> list[Key]:
    """The places in the order of play these games hold as rated (stored steps) and as they
    stand now (live finished games)."""
    keys: list[Key] = []
    for start in range(0, len(game_ids), BATCH):
        chunk = game_ids[start : start + BATCH]
        keys += conn.execute(
            select(RatingStep.played_on, RatingStep.game_order, RatingStep.game_id)
            .where(RatingStep.game_id.in_(chunk))
            .distinct()
        ).all()
        keys += conn.execute(
            select(*_order())
            .join(GameNight, GameNight.id == Game.night_id)
            .where(
                Game.id.in_(chunk),
                Game.status == GameStatus.FINISHED,
                Game.deleted_at.is_(None),
                GameNight.deleted_at.is_(None),
            )
        ).all()
    return keys


def update(session: Session, game_ids: Iterable[int]) -> int:
    """Bring the stored ratings up to date after these games' rows changed (their stored
    standings already written): replay from the earliest place they held or hold in the
    order of play. Returns the games rated. No commit."""
    ids = sorted(set(game_ids))
    if not ids:
        return 0
    conn = session.connection()
    keys = _keys(conn, ids)
    if not keys:
        return 0  # games never finished: nothing rated changes
    return _replay_from(conn, min(keys))


def rebuild_all(session: Session) -> int:
    """Delete every stored rating and rate every live finished game again from scratch, in
    order of play (the migration's backfill). Returns the games rated. No commit."""
    return _replay_from(session.connection(), None)


def _replay_from(conn: Connection, since: Key | None) -> int:
    """Delete the steps from ``since`` on, take the affected players back to their last step
    before it and rate the games from there on again, in order of play."""
    if since is None:
        touched: set[int] = set(conn.scalars(select(PlayerRating.player_id)))
        conn.execute(delete(RatingStep))
    else:
        later = _step_order() >= since
        touched = set(conn.scalars(select(RatingStep.player_id).where(later).distinct()))
        conn.execute(delete(RatingStep).where(later))
    games = list(live_games(conn, since))
    touched.update(pid for game in games for pid, _place in game.places)
    state = _latest(conn, touched)
    rows: list[dict[str, Any]] = []
    rated = 0
    for game, after in rate_games(games, state):
        rated += 1
        played_on, game_order, game_id = game.key
        for r in after:
            state[r.player_id] = r
            rows.append(
                {
                    "game_id": game_id,
                    "player_id": r.player_id,
                    "played_on": played_on,
                    "game_order": game_order,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "ordinal": r.ordinal,
                    "games": r.games,
                }
            )
        if len(rows) >= BATCH * 4:
            conn.execute(insert(RatingStep), rows)
            rows = []
    if rows:
        conn.execute(insert(RatingStep), rows)
    _store_current(conn, touched, state)
    return rated


def _latest(conn: Connection, player_ids: Iterable[int]) -> dict[int, Rating]:
    """Each player's latest stored step (steps are inserted in order of play, so the largest
    id is the latest); players without one are left out."""
    ids = sorted(player_ids)
    out: dict[int, Rating] = {}
    for start in range(0, len(ids), BATCH):
        last = (
            select(func.max(RatingStep.id))
            .where(RatingStep.player_id.in_(ids[start : start + BATCH]))
            .group_by(RatingStep.player_id)
        )
        for row in conn.execute(select(*_RATING_COLUMNS).where(RatingStep.id.in_(last))):
            out[row[0]] = Rating(*row)
    return out


_RATING_COLUMNS = (
    RatingStep.player_id,
    RatingStep.mu,
    RatingStep.sigma,
    RatingStep.ordinal,
    RatingStep.games,
)


def _store_current(conn: Connection, player_ids: set[int], state: dict[int, Rating]) -> None:
    ids = sorted(player_ids)
    for start in range(0, len(ids), BATCH):
        conn.execute(
            delete(PlayerRating).where(PlayerRating.player_id.in_(ids[start : start + BATCH]))
        )
    rows = [
        {"player_id": r.player_id, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal,
         "games": r.games}
        for pid in ids
        if (r := state.get(pid)) is not None
    ]  # fmt: skip
    for start in range(0, len(rows), BATCH):
        conn.execute(insert(PlayerRating), rows[start : start + BATCH])


# --- reading them ------------------------------------------------------------------------------


def ranked(session: Session) -> list[Rating]:
    """Every rated player's current rating, best first: by ordinal, then mu, then fewer games
    (the same rating earned in fewer games), then player id (a stable order)."""
    rows = session.execute(
        select(
            PlayerRating.player_id,
            PlayerRating.mu,
            PlayerRating.sigma,
            PlayerRating.ordinal,
            PlayerRating.games,
        ).order_by(
            PlayerRating.ordinal.desc(),
            PlayerRating.mu.desc(),
            PlayerRating.games,
            PlayerRating.player_id,
        )
    )
    return [Rating(*row) for row in rows]


def places(ratings: Sequence[Rating]) -> list[int]:
    """The place of each rating in a list sorted best first: equal ordinals (rounded to the
    shown 0.1) share a place, the next one skips (1, 1, 3)."""
    out: list[int] = []
    for i, r in enumerate(ratings):
        same = i > 0 and round(r.ordinal, 1) == round(ratings[i - 1].ordinal, 1)
        out.append(out[-1] if same else i + 1)
    return out


def rating_of(session: Session, player_id: int) -> Rating | None:
    """A player's current rating (None before their first finished game)."""
    row = session.get(PlayerRating, player_id)
    if row is None:
        return None
    return Rating(row.player_id, row.mu, row.sigma, row.ordinal, row.games)


def ratings_of(session: Session, player_ids: Iterable[int]) -> dict[int, Rating]:
    """Current ratings of these players (those without one are left out)."""
    ids = sorted(set(player_ids))
    out: dict[int, Rating] = {}
    for start in range(0, len(ids), BATCH):
        for row in session.scalars(
            select(PlayerRating).where(PlayerRating.player_id.in_(ids[start : start + BATCH]))
        ):
            out[row.player_id] = Rating(row.player_id, row.mu, row.sigma, row.ordinal, row.games)
    return out


def place_of(session: Session, rating: Rating) -> tuple[int, int]:
    """(place, rated players): the place ``rating`` holds among every current rating (one
    more than those rated higher as shown, to 0.1) and how many players are rated."""
    shown = round(rating.ordinal, 1) + 0.05
    count = select(func.count()).select_from(PlayerRating)
    higher, total = session.execute(
        select(
            count.where(PlayerRating.ordinal >= shown).scalar_subquery(),
            count.scalar_subquery(),
        )
    ).one()
    return int(higher or 0) + 1, int(total or 0)


def steps_of(
    session: Session, player_id: int, positions: Iterable[int] | None = None
) -> list[Step]:
    """A player's rating after each of their rated games, in order of play; only the games at
    these 0-based ``positions`` in that order when given (a chart's points: the database
    numbers the rows, so a long history is not sent over whole)."""
    query = select(RatingStep.game_id, RatingStep.played_on, *_RATING_COLUMNS).where(
        RatingStep.player_id == player_id
    )
    if positions is None:
        query = query.order_by(RatingStep.id)
    else:
        # a step's ``games`` is its number in the player's order of play (1 for the first),
        # so the wanted steps are index seeks on (player_id, games), however long the history
        # (ordered by that number too: ordered by id, SQLite walked every step of the player)
        wanted = sorted({p + 1 for p in positions})
        query = query.where(RatingStep.games.in_(wanted)).order_by(RatingStep.games)
    rows = session.execute(query)
    return [Step(gid, day, Rating(pid, mu, sigma, o, n)) for gid, day, pid, mu, sigma, o, n in rows]


def chance_ahead(first: Rating | None, second: Rating | None) -> float:
    """The model's chance (0..1) that ``first`` finishes ahead of ``second`` in a game of the
    two (openskill's ``predict_win``); a player without a rating counts as new."""
    m = model()
    teams = [
        [m.rating() if r is None else m.rating(mu=r.mu, sigma=r.sigma)] for r in (first, second)
    ]
    return float(m.predict_win(teams)[0])


def api_document(session: Session) -> dict[str, Any]:
    """The answer of ``GET /api/v1/ratings``: the model's name and every rated player, best
    first, as ``{"name", "mu", "sigma", "ordinal", "games"}`` (rating points, games)."""
    names = dict(
        session.execute(
            select(Player.id, Player.name).join(PlayerRating, PlayerRating.player_id == Player.id)
        ).all()
    )
    return {
        "model": MODEL_NAME,
        "players": [
            {
                "name": names.get(r.player_id, ""),
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "games": r.games,
            }
            for r in ranked(session)
        ],
    }
