"""Write a validated export document: its new items added to the database in one transaction.

The last of the import's three steps (:mod:`.decode` -> :mod:`.validate` -> :mod:`.write`): it
is only given plain data that :func:`companion.services.exchange.validate.validate` passed, and
:func:`write_document` commits everything or nothing (a database error rolls the whole file
back and is returned as one problem: nothing stays half-saved).

Nothing is duplicated: each item is matched to what is already in the database by a natural key
and only what is new is added.

* a game is its ``key`` (the share token, unique); a game already there is kept as it is (the
  database's version wins, even if the file has more rounds), with its rounds, audit and rulings;
* a night is the night of one of its games already there, else (date, place, created_at);
* a player is the first player not yet matched in this import with the same name key and the
  same merge target (merge targets are matched first), else a new player;
* a ruling without a game is (created_at, category, summary).

New games go in with a few bulk ``INSERT ... RETURNING`` statements per :data:`BATCH` games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import insert, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ...models import (
    AuditEntry,
    Game,
    GameNight,
    HandScore,
    Player,
    Round,
    Ruling,
    Seat,
    new_token,
)
from ..results import record_games
from .shape import Problem, seat_marker, to_date, to_datetime

#: new games written per group of bulk inserts
BATCH = 500

#: who may undo a deletion by importing: called with a deleted night or game of the file
MayRestore = Callable[[GameNight | Game], bool]


def restore_all(_row: GameNight | Game) -> bool:
    """:data:`MayRestore` of the command line: whoever runs it owns the database."""
    return True


@dataclass
class Written:
    """What :func:`write_document` did, counted per kind ("players", "nights", "games",
    "rounds", "rulings").

    Attributes:
        added: kind -> rows added.
        kept: kind -> items of the file that were already in the database (left as they were).
        restored: kind ("nights", "games") -> deleted items the file brought back (their
            ``deleted_at`` cleared), when the importer may (:data:`MayRestore`).
        not_restored: kind -> deleted items of the file left deleted: the importer may not
            undo the deletion.
        new_games: the keys (share tokens) of the games added.
    """

    added: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    restored: Counter[str] = field(default_factory=Counter)
    not_restored: Counter[str] = field(default_factory=Counter)
    new_games: list[str] = field(default_factory=list)

    def forget(self) -> None:
        """Clear every count: what a rolled back write reports (nothing was written)."""
        for counter in (self.added, self.kept, self.restored, self.not_restored):
            counter.clear()
        self.new_games.clear()


def write_document(
    session: Session,
    doc: dict[str, Any],
    written: Written,
    may_restore: MayRestore = restore_all,
) -> Problem | None:
    """Add what is new in ``doc`` (valid plain data) and commit, counting into ``written``.

    A night or game of the file that was deleted here comes back only when ``may_restore`` says
    so. Returns None when committed; on a database error (validation should leave nothing for
    the database to refuse) the session is rolled back, ``written`` is cleared and the
    database's refusal is returned as one problem.
    """
    try:
        _Writer(session, written, may_restore).write(doc)
        session.commit()
    except (SQLAlchemyError, LookupError, TypeError, ValueError) as exc:
        session.rollback()
        written.forget()
        orig = getattr(exc, "orig", None)  # the driver's own message, for a database error
        detail = str(orig) if orig else str(exc)
        return Problem("$", _("The database refused the import: %(detail)s", detail=detail))
    return None


class _Writer:
    """Adds a validated document's new items to the session (no commit)."""

    def __init__(self, session: Session, written: Written, may_restore: MayRestore) -> None:
        self.session = session
        self.written = written
        self.may_restore = may_restore
        self.players: dict[str, Player] = {}
        self.claimed: set[int] = set()

    def write(self, doc: dict[str, Any]) -> None:
        docs = {p["ref"]: p for p in doc["players"]}
        for ref in docs:
            self._player(ref, docs)
        keys = [g["key"] for night in doc["nights"] for g in night["games"]]
        existing = self._existing_games(keys)
        new_games: list[tuple[int, dict]] = []
        for night in doc["nights"]:
            night_id = self._night(night, existing)
            for game in night["games"]:
                if game["key"] in existing:
                    self._keep_or_restore(existing[game["key"]], "games")
                else:
                    new_games.append((night_id, game))
        for start in range(0, len(new_games), BATCH):
            self._games(new_games[start : start + BATCH])
        for ruling in doc.get("rulings", []):
            self._loose_ruling(ruling)
        self.session.flush()

    def _player(self, ref: str, docs: dict[str, dict]) -> Player:
        if ref in self.players:
            return self.players[ref]
        data = docs[ref]
        target = self._player(data["merged_into"], docs) if data["merged_into"] else None
        target_id = target.id if target is not None else None
        candidates = self.session.scalars(
            select(Player)
            .where(Player.name_key == data["name_key"])
            .where(
                Player.merged_into_id == target_id
                if target_id is not None
                else Player.merged_into_id.is_(None)
            )
            .order_by(Player.id)
        )
        player = next((p for p in candidates if p.id not in self.claimed), None)
        if player is None:
            player = Player(
                name=data["name"],
                name_key=data["name_key"],
                created_at=to_datetime(data["created_at"]),
                merged_into_id=target_id,
            )
            self.session.add(player)
            self.session.flush()
            self.written.added["players"] += 1
        else:
            self.written.kept["players"] += 1
        self.claimed.add(player.id)
        self.players[ref] = player
        return player

    def _existing_games(self, keys: list[str]) -> dict[str, Game]:
        found: dict[str, Game] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            for game in self.session.scalars(select(Game).where(Game.share_token.in_(chunk))):
                found[game.share_token] = game
        return found

    def _night(self, data: dict, existing: dict[str, Game]) -> int:
        """The id of the night ``data`` describes: found, or added."""
        night = next(
            (existing[g["key"]].night for g in data["games"] if g["key"] in existing), None
        ) or self.session.scalar(
            select(GameNight)
            .where(
                GameNight.played_on == to_date(data["played_on"]),
                GameNight.place == data["place"],
                GameNight.created_at == to_datetime(data["created_at"]),
            )
            .order_by(GameNight.id)
            .limit(1)
        )
        if night is None:
            night = GameNight(
                played_on=to_date(data["played_on"]),
                place=data["place"],
                notes=data["notes"],
                created_at=to_datetime(data["created_at"]),
            )
            self.session.add(night)
            self.session.flush()
            self.written.added["nights"] += 1
        else:
            self._keep_or_restore(night, "nights")
        return night.id

    def _keep_or_restore(self, row: GameNight | Game, kind: str) -> None:
        """Count a night or game of the file that is already here; a deleted one comes back
        when the importer may undo its deletion (importing a backup is how a deletion is
        undone after the restore window)."""
        if row.deleted_at is None:
            self.written.kept[kind] += 1
        elif self.may_restore(row):
            row.deleted_at = None
            self.written.restored[kind] += 1
        else:
            self.written.not_restored[kind] += 1

    def _games(self, batch: list[tuple[int, dict]]) -> None:
        """Insert new games with their seats, rounds, hands, audit and rulings: a few bulk
        INSERT ... RETURNING statements per batch (ids come back in parameter order)."""
        game_ids = self._insert(Game, [_game_row(night_id, data) for night_id, data in batch])
        seat_rows = [
            {"game_id": gid, "position": s["position"], "player_id": self.players[s["player"]].id}
            for gid, (_, data) in zip(game_ids, batch, strict=True)
            for s in data["seats"]
        ]
        new_seats = iter(self._insert(Seat, seat_rows))
        rounds, hands, audit, rulings = [], [], [], []
        for gid, (_key, data) in zip(game_ids, batch, strict=True):
            seats = {s["position"]: next(new_seats) for s in data["seats"]}
            for rnd in data["rounds"]:
                rounds.append(_round_row(gid, rnd, seats))
                hands.append([_hand_row(h, seats) for h in rnd["hands"]])
            audit += [_audit_row(gid, entry, seats) for entry in data["audit"]]
            rulings += [_ruling_row(gid, r) for r in data["rulings"]]
        round_ids = self._insert(Round, rounds)
        hand_rows = [
            {**h, "round_id": rid}
            for rid, group in zip(round_ids, hands, strict=True)
            for h in group
        ]
        for model, rows in ((HandScore, hand_rows), (AuditEntry, audit), (Ruling, rulings)):
            if rows:
                self.session.execute(insert(model), rows)
        record_games(self.session, game_ids)  # bulk rows bypass the ORM hook: store standings
        self.written.added["games"] += len(batch)
        self.written.new_games += [data["key"] for _, data in batch]
        self.written.added["rounds"] += len(rounds)
        self.written.added["rulings"] += len(rulings)

    def _insert(self, model: type[Any], rows: list[dict[str, Any]]) -> list[int]:
        if not rows:
            return []
        statement = insert(model).returning(model.id, sort_by_parameter_order=True)
        return list(self.session.scalars(statement, rows))

    def _loose_ruling(self, data: dict) -> None:
        there = self.session.scalar(
            select(Ruling.id)
            .where(
                Ruling.game_id.is_(None),
                Ruling.created_at == to_datetime(data["created_at"]),
                Ruling.category == data["category"],
                Ruling.summary == data["summary"],
            )
            .limit(1)
        )
        if there is not None:
            self.written.kept["rulings"] += 1
            return
        self.session.execute(insert(Ruling), [_ruling_row(None, data)])
        self.written.added["rulings"] += 1


def _game_row(night_id: int, data: dict) -> dict[str, Any]:
    return {
        "night_id": night_id,
        "share_token": data["key"],
        "edit_token": new_token(),  # edit links are not exported: the import makes a new one
        "join_token": new_token(),  # nor join secrets
        "version": 1,  # what the ORM's version counter starts at
        "set_size": data["set_size"],
        "preset": data["preset"],
        "rules": data["rules"],
        "hand_size": data["hand_size"],
        "chosen_spokes": data["chosen_spokes"],
        "status": data["status"],
        "created_at": to_datetime(data["created_at"]),
        "updated_at": to_datetime(data["updated_at"]),
        "finished_at": to_datetime(data["finished_at"]),
    }


def _round_row(game_id: int, data: dict, seats: dict[int, int]) -> dict[str, Any]:
    starter = data["starter"]
    return {
        "game_id": game_id,
        "number": data["number"],
        "start_double": data["start_double"],
        "status": data["status"],
        "outcome": data["outcome"],
        "starter_seat_id": seats[starter] if starter is not None else None,
        "created_at": to_datetime(data["created_at"]),
        "updated_at": to_datetime(data["updated_at"]),
    }


def _hand_row(data: dict, seats: dict[int, int]) -> dict[str, Any]:
    return {
        "seat_id": seats[data["seat"]],
        "points": data["points"],
        "went_out": data["went_out"],
        "out_on_double": data["out_on_double"],
        "tiles": data["tiles"],
    }


def _audit_row(game_id: int, data: dict, seats: dict[int, int]) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "at": to_datetime(data["at"]),
        "action": data["action"],
        "summary": data["summary"],
        "code": data.get("code"),
        "params": data.get("params"),
        "before": seat_ids(data["before"], seats),
        "after": seat_ids(data["after"], seats),
        "undone": data["undone"],
    }


def _ruling_row(game_id: int | None, data: dict) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "created_at": to_datetime(data["created_at"]),
        "category": data["category"],
        "question": data["question"],
        "answer": data["answer"],
        "rules": data["rules"],
        "summary": data["summary"],
    }


def seat_ids(value: Any, seats: dict[int, int]) -> Any:
    """The inverse of :func:`companion.services.exchange.export.seat_refs`: ``{"$seat": position}``
    becomes that seat's new database id (``seats``: position -> id)."""
    found, seat = seat_marker(value)
    if found:
        return seats[seat]
    if isinstance(value, dict):
        return {k: seat_ids(v, seats) for k, v in value.items()}
    if isinstance(value, list):
        return [seat_ids(v, seats) for v in value]
    return value
