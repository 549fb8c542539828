"""Demo data: realistic game nights for trying the app and for the history benchmark.

:func:`generate` adds ``games`` finished games spread over ``nights`` game nights (one every few
days, newest last) among a pool of ``players`` people: 3 to 8 players a game, mostly double-9
sets (some double-6 and double-12), every round played (one per double, highest first). Each
round deals real hands (the engine's hand size for the table), plays away a random share of each
hand, lets one player go out (or blocks the round now and then) and scores what is left with the
engine's :func:`~companion.engine.score_hand`, so totals, zero rounds and ties look like a real
table's. Seeded: the same arguments give the same data.

Rows are written with SQLAlchemy Core bulk inserts (thousands of games in seconds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from ..engine import PRESETS, DominoSet, RuleSet, Tile, hand_size, score_hand
from ..engine.errors import EngineError
from ..models import Game, GameNight, HandScore, Player, Round, Seat, new_token
from ..services.game_setup import name_key
from ..services.results import record_games
from ..vocab import GameStatus, RoundOutcome, RoundStatus

FIRST_NAMES = (
    "Anna", "Ben", "Chloé", "Dev", "Eli", "Femi", "Greta", "Hana", "Ivan", "Jo", "Kai", "Lena",
    "Malik", "Nora", "Omar", "Pia", "Quinn", "Rosa", "Sven", "Tomás", "Uma", "Vera", "Wei",
    "Ximena", "Yusuf", "Zoë", "Arjun", "Bea", "Chen", "Dana", "Emil", "Farah", "Gus", "Ines",
    "Jonas", "Kofi", "Lotte", "Mika", "Nils", "Olga",
)  # fmt: skip
PLACES = ("Kitchen", "Anna's", "Club house", "Cabin", "Garden", "Library café")
#: (set size, weight): double-9 mostly
SETS = ((9, 16), (6, 3), (12, 1))
#: games inserted, decided, summarised, rated and committed together
BATCH = 500


@dataclass(frozen=True)
class DemoSummary:
    """What :func:`generate` added: counts of players, nights, games, rounds and hands."""

    players: int
    nights: int
    games: int
    rounds: int
    hands: int


def generate(
    session: Session,
    *,
    games: int = 200,
    nights: int | None = None,
    players: int = 40,
    seed: int = 2026,
    start: date = date(2019, 1, 5),
) -> DemoSummary:
    """Add demo history, committing every :data:`BATCH` games (50,000 games take minutes and
    an interrupted run keeps its finished batches). ``nights`` defaults to one night per ten
    games.

    Players are reused by name when they already exist (so running it twice adds games, not
    people). Raises ValueError for counts below 1.
    """
    if games < 1 or players < 3:
        raise ValueError("Demo data needs at least 1 game and 3 players.")
    nights = nights or max(1, games // 10)
    rng = random.Random(seed)
    people = _players(session, players)
    counts = {"rounds": 0, "hands": 0}
    night_ids = _nights(session, rng, nights, start)
    rows = _Rows()
    session.commit()  # the players and nights: a long run keeps what it has done so far
    for g in range(games):
        night_id, played_on = night_ids[g * len(night_ids) // games]
        _game(rng, rows, night_id, played_on, people, counts)
        if len(rows.games) >= BATCH:
            rows.flush(session)
            session.commit()
    rows.flush(session)
    session.commit()
    return DemoSummary(len(people), len(night_ids), games, counts["rounds"], counts["hands"])


def _players(session: Session, count: int) -> list[int]:
    names = [
        FIRST_NAMES[i % len(FIRST_NAMES)] + (f" {i // len(FIRST_NAMES) + 1}" if i >= 40 else "")
        for i in range(count)
    ]
    ids = []
    for name in names:
        player = session.scalar(
            select(Player).where(Player.name_key == name_key(name), Player.merged_into_id.is_(None))
        )
        if player is None:
            player = Player(name=name, name_key=name_key(name))
            session.add(player)
            session.flush()
        ids.append(player.id)
    return ids


def _nights(
    session: Session, rng: random.Random, count: int, start: date
) -> list[tuple[int, date]]:
    out = []
    day = start
    for _ in range(count):
        day += timedelta(days=rng.choice((3, 4, 7, 7, 7, 14)))
        evening = datetime.combine(day, datetime.min.time()) + timedelta(hours=19)
        night = GameNight(played_on=day, place=rng.choice(PLACES), created_at=evening)
        session.add(night)
        session.flush()
        out.append((night.id, day))
    return out


class _Rows:
    """Games waiting for a bulk insert: each game's row, seats and rounds (with hands).

    Ids come back from ``INSERT ... RETURNING`` in parameter order, so children are linked to
    their parents without guessing ids (and PostgreSQL's sequences stay right).
    """

    def __init__(self) -> None:
        self.games: list[dict[str, Any]] = []

    def flush(self, session: Session) -> None:
        if not self.games:
            return
        game_ids = _insert(session, Game, [g["row"] for g in self.games])
        seats = []
        for game, game_id in zip(self.games, game_ids, strict=True):
            seats += [{**seat, "game_id": game_id} for seat in game["seats"]]
        seat_ids = iter(_insert(session, Seat, seats))
        rounds, hands = [], []
        for game, game_id in zip(self.games, game_ids, strict=True):
            ids = [next(seat_ids) for _ in game["seats"]]
            for rnd in game["rounds"]:
                starter = ids[rnd["starter"]]
                rounds.append({**rnd["row"], "game_id": game_id, "starter_seat_id": starter})
                hands.append([{**h, "seat_id": ids[i]} for i, h in enumerate(rnd["hands"])])
        round_ids = _insert(session, Round, rounds)
        session.connection().execute(
            insert(cast(Table, HandScore.__table__)),  # Core: no ORM bookkeeping per row
            [
                {**h, "round_id": rid}
                for rid, group in zip(round_ids, hands, strict=True)
                for h in group
            ],
        )
        self.games.clear()
        record_games(session, game_ids)  # the standings the history pages read


def _insert(session: Session, model: type, rows: list[dict[str, Any]]) -> list[int]:
    """Bulk-insert ``rows`` (Core, no ORM bookkeeping per row) and return their new ids in the
    same order."""
    table = model.__table__  # type: ignore[attr-defined]
    statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
    return list(session.connection().execute(statement, rows).scalars())


def _game(
    rng: random.Random,
    rows: _Rows,
    night_id: int,
    played_on: date,
    people: list[int],
    counts: dict[str, int],
) -> None:
    set_size = rng.choices([s for s, _ in SETS], weights=[w for _, w in SETS])[0]
    preset = rng.choice(("standard", "standard", "standard", *sorted(PRESETS)))
    rules = RuleSet.from_dict({**PRESETS[preset], "set_size": set_size})
    table = rng.sample(people, rng.choice((3, 4, 4, 5, 5, 6, 7, 8)))
    try:
        size = hand_size(rules, set_size, len(table))
    except EngineError:  # this preset has no hand size for this table: deal the usual seven
        size = 7
    began = datetime.combine(played_on, datetime.min.time()) + timedelta(hours=19, minutes=5)
    moment = began
    dominoes = DominoSet(set_size)
    rounds = []
    for number, double in enumerate(range(set_size, -1, -1), start=1):
        moment += timedelta(minutes=rng.randint(6, 14))
        hands = _round_hands(rng, dominoes, rules, double, len(table), size)
        row = {
            "number": number,
            "start_double": double,
            "status": RoundStatus.SCORED.value,
            "outcome": RoundOutcome.OUT
            if any(h["went_out"] for h in hands)
            else RoundOutcome.BLOCKED,
            "created_at": moment,
            "updated_at": moment,
        }
        rounds.append({"row": row, "starter": rng.randrange(len(table)), "hands": hands})
        counts["rounds"] += 1
        counts["hands"] += len(hands)
    row = {
        "night_id": night_id,
        "set_size": set_size,
        "preset": preset,
        "rules": rules.to_dict(),
        "status": GameStatus.FINISHED.value,
        "edit_token": new_token(),
        "share_token": new_token(),
        "join_token": new_token(),
        "version": 1,
        "created_at": began,
        "updated_at": moment,
        "finished_at": moment,
    }
    seats = [{"player_id": p, "position": i} for i, p in enumerate(table)]
    rows.games.append({"row": row, "seats": seats, "rounds": rounds})


def _round_hands(
    rng: random.Random,
    dominoes: DominoSet,
    rules: RuleSet,
    double: int,
    players: int,
    size: int,
) -> list[dict[str, Any]]:
    """Deal, play a random share of each hand away and score what is left (engine scoring)."""
    centre = Tile(double, double)
    pool = [t for t in dominoes.tiles if t != centre]
    rng.shuffle(pool)
    size = min(size, len(pool) // players)
    blocked = rng.random() < 0.08
    winner = None if blocked else rng.randrange(players)
    out = []
    for i in range(players):
        dealt = pool[i * size : (i + 1) * size]
        if i == winner:
            kept: list[Tile] = []
        else:
            kept = rng.sample(dealt, rng.randint(1, max(1, len(dealt) // 2)))
        result = score_hand(kept, rules, went_out=i == winner, round_double=centre)
        out.append(
            {
                "points": result.points,
                "went_out": i == winner,
                "out_on_double": False,
                "tiles": [str(t) for t in kept],
            }
        )
    return out
