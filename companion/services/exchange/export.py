"""Export and import of the history: CSV for spreadsheets, JSON to rebuild the games.

No Flask request code here: every function takes a SQLAlchemy session, so the CLI
(:mod:`companion.cli`), the download routes (:mod:`companion.history.export_views`) and the tests
share one implementation.

**The JSON document** (``FORMAT`` = ``"chickenfoot-companion/v1"``) holds, without database ids::

    {"format", "scope": "all" | "night" | "game",
     "players": [{"ref": "p1", "name", "name_key", "created_at", "merged_into": ref | null}],
     "nights": [{"played_on", "place", "notes", "created_at",
                 "games": [{"key" (the share token), "set_size", "preset", "rules", "hand_size",
                            "chosen_spokes", "status", "created_at", "updated_at", "finished_at",
                            "seats": [{"position", "player": ref}],
                            "rounds": [{"number", "start_double", "status", "outcome",
                                        "starter": position | null, "created_at", "updated_at",
                                        "hands": [{"seat": position, "points", "went_out",
                                                   "out_on_double", "tiles": [...] | null}]}],
                            "audit": [{"at", "action", "summary", "before", "after", "undone",
                                       "code"?, "params"?}],
                            "rulings": [{"created_at", "category", "question", "answer",
                                         "rules", "summary"}]}]}],
     "rulings": [rulings not tied to a game (only in "all")]}

An audit entry's optional ``code`` and ``params`` say what its line says
(:class:`companion.vocab.AuditCode`), worded in the reader's language; ``summary`` is the
sentence as written (all that entries from before codes, and older backups, carry).

Audit snapshots refer to seats by database id; the document writes those as
``{"$seat": position}`` (:func:`seat_refs`) and the import maps them to the new seats' ids.

It carries no volatile field (no export time, no version counter), so exporting, importing into a
fresh database and exporting again gives the same document, byte for byte with :func:`dumps`.
Left out on purpose: soft-deleted nights and games (they are deleted as far as the user is
concerned), the games' edit tokens (an edit link is a capability: an imported game gets a new one)
and the optimistic-locking ``version`` counter.

**Natural keys** make imports idempotent (see :mod:`companion.services.exchange.write`): a game
is its share token; a night is (date, place, created_at) or the night of one of its games already
there; a player is their name key (and merge target); a ruling without a game is
(created_at, category, summary).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date, datetime
from enum import StrEnum
from types import SimpleNamespace
from typing import Any

from babel import UnknownLocaleError
from babel.numbers import get_decimal_symbol
from flask_babel import lazy_gettext as _l
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from ...engine import SUPPORTED_SETS
from ...models import AuditEntry, Game, GameNight, HandScore, Player, Round, Ruling, Seat

# the import's entry points too, so that a round trip (export, then import) needs one module
from .importing import ImportReport, import_document, parse_document
from .shape import FORMAT, SEAT_ID_KEYS, Problem

__all__ = [
    "CSV_BOM",
    "CSV_COLUMNS",
    "CsvSeparator",
    "FORMAT",
    "ImportReport",
    "NotFound",
    "Problem",
    "dumps",
    "export_document",
    "import_document",
    "csv_separator",
    "iter_csv",
    "parse_document",
    "scope_name",
]

#: the CSV header, one row per player per scored round
CSV_COLUMNS = (
    "night_date",
    "night_place",
    "game_id",
    "game_number",
    "game_key",
    "set",
    "round_number",
    "round_double",
    "player",
    "seat",
    "score",
    "went_out",
    "out_on_double",
    "total",
    "tiles",
)

#: the CSV header as a person reads it (the web export, in the player's language): column ->
#: heading, each one distinct (the night's place is not a place in the ranking, nor a seat).
#: The command line keeps the column ids, which scripts read.
CSV_HEADINGS = {
    "night_date": _l("Date"),
    "night_place": _l("Where played"),
    "game_id": _l("Game id"),
    "game_number": _l("Game number in the night"),
    "game_key": _l("Game key"),
    "set": _l("Set"),
    "round_number": _l("Round"),
    "round_double": _l("Round double"),
    "player": _l("Player"),
    "seat": _l("Seat at the table"),
    "score": _l("Score"),
    "went_out": _l("Went out"),
    "out_on_double": _l("Went out on a double"),
    "total": _l("Total"),
    "tiles": _l("Tiles left in hand"),
}

#: games loaded per query when exporting everything (bounds memory, keeps queries few)
BATCH = 200


class NotFound(LookupError):
    """The game or night asked for does not exist or was deleted."""


def iso(value: datetime | date | None) -> str | None:
    """A date or naive UTC datetime as ISO 8601 text (None stays None)."""
    return None if value is None else value.isoformat()


def scope_name(game_id: int | None = None, night_id: int | None = None) -> str:
    """A short name for the exported scope, for file names: ``game-12``, ``night-3``, ``all``."""
    if game_id is not None:
        return f"game-{game_id}"
    if night_id is not None:
        return f"night-{night_id}"
    return "all"


# --- choosing what to export -------------------------------------------------------------------


def _live_night(session: Session, night_id: int) -> GameNight:
    night = session.get(GameNight, night_id)
    if night is None or night.deleted_at is not None:
        raise NotFound(f"There is no game night {night_id}.")
    return night


def _game_ids(session: Session, game_id: int | None, night_id: int | None) -> list[int]:
    """Ids of the live games in scope, in export order (night date, night, game)."""
    query = (
        select(Game.id)
        .join(GameNight, Game.night_id == GameNight.id)
        .where(Game.deleted_at.is_(None), GameNight.deleted_at.is_(None))
        .order_by(GameNight.played_on, GameNight.created_at, GameNight.id, Game.id)
    )
    if game_id is not None:
        ids = list(session.scalars(query.where(Game.id == game_id)))
        if not ids:
            raise NotFound(f"There is no game {game_id}.")
        return ids
    if night_id is not None:
        _live_night(session, night_id)
        query = query.where(Game.night_id == night_id)
    return list(session.scalars(query))


def _load_games(session: Session, ids: list[int]) -> Iterator[SimpleNamespace]:
    """The games with these ids, in that order, as light read-only records with ``seats``,
    ``rounds`` (each with ``hands``), ``audit`` and ``rulings``: six plain queries per batch
    of :data:`BATCH` games, no ORM objects (a 5,000-game history exports 3-4 times faster)."""
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        games = {
            row.id: SimpleNamespace(**row._asdict(), seats=[], rounds=[], audit=[], rulings=[])
            for row in session.execute(_columns(Game).where(Game.id.in_(chunk)))
        }
        for model, order, attr in (
            (Seat, Seat.position, "seats"),
            (Round, Round.number, "rounds"),
            (AuditEntry, AuditEntry.id, "audit"),
            (Ruling, Ruling.id, "rulings"),
        ):
            query = _columns(model).where(model.game_id.in_(chunk)).order_by(order)
            for row in session.execute(query):
                item = SimpleNamespace(**row._asdict(), hands=[]) if model is Round else row
                getattr(games[row.game_id], attr).append(item)
        rounds = {r.id: r for g in games.values() for r in g.rounds}
        hands = _columns(HandScore).join(Round).where(Round.game_id.in_(chunk))
        for row in session.execute(hands.order_by(HandScore.id)):
            rounds[row.round_id].hands.append(row)
        yield from (games[i] for i in chunk)


def _columns(model: type[Any]) -> Select:
    """SELECT every column of ``model`` as plain rows (attribute access by column name)."""
    return select(*model.__table__.columns)


def _players_by_id(session: Session) -> dict[int, Player]:
    return {p.id: p for p in session.scalars(select(Player).order_by(Player.id))}


# --- JSON ----------------------------------------------------------------------------------------


def export_document(
    session: Session, *, game_id: int | None = None, night_id: int | None = None
) -> dict[str, Any]:
    """The JSON export document of one game, one night, or everything (neither given).

    Returns a JSON-ready dict (see the module docstring for its shape).
    Raises :class:`NotFound` for an unknown or deleted game or night.
    """
    ids = _game_ids(session, game_id, night_id)
    players = _players_by_id(session)
    nights: dict[int, dict[str, Any]] = {}
    if night_id is not None:  # a night without games is still exported with its notes
        nights[night_id] = _night_json(_live_night(session, night_id))
    elif game_id is None:
        for night in session.scalars(
            select(GameNight)
            .where(GameNight.deleted_at.is_(None))
            .order_by(GameNight.played_on, GameNight.created_at, GameNight.id)
        ):
            nights[night.id] = _night_json(night)
    seated: set[int] = set()
    games: list[tuple[int, SimpleNamespace]] = []
    for game in _load_games(session, ids):
        if game.night_id not in nights:
            home = session.get(GameNight, game.night_id)
            assert home is not None  # games.night_id is a foreign key: the night exists
            nights[game.night_id] = _night_json(home)
        seated.update(seat.player_id for seat in game.seats)
        games.append((game.night_id, game))
    refs = _player_refs(players, seated if game_id is not None or night_id is not None else None)
    for night_key, game in games:
        nights[night_key]["games"].append(_game_json(game, refs))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "scope": "game" if game_id is not None else "night" if night_id is not None else "all",
        "players": [_player_json(players[pid], refs) for pid in refs],
        "nights": list(nights.values()),
        "rulings": [],
    }
    if game_id is None and night_id is None:
        doc["rulings"] = [
            _ruling_json(r)
            for r in session.scalars(
                select(Ruling)
                .where(Ruling.game_id.is_(None))
                .order_by(Ruling.created_at, Ruling.id)
            )
        ]
    return doc


def _player_refs(players: dict[int, Player], wanted: set[int] | None) -> dict[int, str]:
    """Player id -> document reference ``p1``, ``p2``... in id order.

    ``wanted`` None means every player; otherwise the seated players plus everyone they were
    merged into (so the merge chain survives the trip).
    """
    if wanted is None:
        chosen = set(players)
    else:
        chosen = set()
        for start in wanted:
            pid: int | None = start
            while pid is not None and pid not in chosen and pid in players:
                chosen.add(pid)
                pid = players[pid].merged_into_id
    return {pid: f"p{i}" for i, pid in enumerate(sorted(chosen), start=1)}


def _player_json(player: Player, refs: dict[int, str]) -> dict[str, Any]:
    return {
        "ref": refs[player.id],
        "name": player.name,
        "name_key": player.name_key,
        "created_at": iso(player.created_at),
        "merged_into": refs.get(player.merged_into_id) if player.merged_into_id else None,
    }


def _night_json(night: GameNight) -> dict[str, Any]:
    return {
        "played_on": iso(night.played_on),
        "place": night.place,
        "notes": night.notes,
        "created_at": iso(night.created_at),
        "games": [],
    }


def _game_json(game: Any, refs: dict[int, str]) -> dict[str, Any]:
    """A game record of :func:`_load_games` as its part of the document."""
    position = {seat.id: seat.position for seat in game.seats}
    return {
        "key": game.share_token,
        "set_size": game.set_size,
        "preset": game.preset,
        "rules": game.rules,
        "hand_size": game.hand_size,
        "chosen_spokes": game.chosen_spokes,
        "status": game.status,
        "created_at": iso(game.created_at),
        "updated_at": iso(game.updated_at),
        "finished_at": iso(game.finished_at),
        "seats": [{"position": s.position, "player": refs[s.player_id]} for s in game.seats],
        "rounds": [_round_json(r, position) for r in game.rounds],
        "audit": [_audit_json(a, position) for a in game.audit],
        "rulings": [_ruling_json(r) for r in game.rulings],
    }


def _audit_json(entry: Any, position: dict[int, int]) -> dict[str, Any]:
    """One audit entry; ``code`` and ``params`` (what the line says, worded by the reader) only
    when it has them, so an entry from before codes is written as it always was."""
    out = {
        "at": iso(entry.at),
        "action": entry.action,
        "summary": entry.summary,
        "before": seat_refs(entry.before, position),
        "after": seat_refs(entry.after, position),
        "undone": entry.undone,
    }
    if entry.code is not None:
        out["code"] = entry.code
        out["params"] = entry.params if entry.params is not None else {}
    return out


def seat_refs(value: Any, position: dict[int, int]) -> Any:
    """Audit snapshots name seats by database id (``seat_id``, ``starter_seat_id``, see
    :func:`companion.services.round_store.round_snapshot`); ids change on import, so the
    document says ``{"$seat": position}`` instead
    (:func:`~companion.services.exchange.write.seat_ids` turns them back). Other values are
    copied as they are."""
    if isinstance(value, dict):
        return {
            k: {"$seat": position[v]}
            if k in SEAT_ID_KEYS and isinstance(v, int) and v in position
            else seat_refs(v, position)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [seat_refs(v, position) for v in value]
    return value


def _round_json(rnd: Any, position: dict[int, int]) -> dict[str, Any]:
    hands = sorted(rnd.hands, key=lambda h: position[h.seat_id])
    return {
        "number": rnd.number,
        "start_double": rnd.start_double,
        "status": rnd.status,
        "outcome": rnd.outcome,
        "starter": position.get(rnd.starter_seat_id) if rnd.starter_seat_id else None,
        "created_at": iso(rnd.created_at),
        "updated_at": iso(rnd.updated_at),
        "hands": [_hand_json(h, position) for h in hands],
    }


def _hand_json(hand: Any, position: dict[int, int]) -> dict[str, Any]:
    return {
        "seat": position[hand.seat_id],
        "points": hand.points,
        "went_out": hand.went_out,
        "out_on_double": hand.out_on_double,
        "tiles": list(hand.tiles) if hand.tiles is not None else None,
    }


def _ruling_json(ruling: Any) -> dict[str, Any]:
    return {
        "created_at": iso(ruling.created_at),
        "category": ruling.category,
        "question": ruling.question,
        "answer": ruling.answer,
        "rules": ruling.rules,
        "summary": ruling.summary,
    }


def dumps(doc: dict[str, Any]) -> str:
    """The document as compact JSON text with sorted keys (and a final newline), so that equal
    documents are equal text whatever order the database kept JSON keys in (PostgreSQL JSONB
    sorts them). Compact because a big history is mostly tiles and house rules: indenting
    nearly triples the size (5,000 games: 35 MB instead of 94 MB)."""
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


# --- CSV -----------------------------------------------------------------------------------------


#: first characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"),
#: with their full-width forms, which some spreadsheets fold to the ASCII ones
_FORMULA_STARTS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs as a formula: text whose first non-blank character
    could start one (``=HYPERLINK(...)``, ``+``, ``-``, ``@``, tab, CR, LF) gets a leading
    ``'``; numbers and other values pass unchanged. Every text cell of every CSV export goes
    through here (:func:`_csv_row`), whatever its column."""
    if not isinstance(value, str):
        return value
    first = value.lstrip(" ")[:1]
    return "'" + value if first and first in _FORMULA_STARTS else value


#: what a CSV download starts with: the UTF-8 byte order mark, without which spreadsheet
#: programs read the file in the computer's legacy code page ("Zoë", Cyrillic garbled)
CSV_BOM = "\ufeff"


class CsvSeparator(StrEnum):
    """Separators of a CSV export: spreadsheets in a locale whose decimal mark is a comma
    (de, es, ru, lt, cs, ...) split a file's columns on ";", the others on ","."""

    COMMA = ","
    SEMICOLON = ";"


def csv_separator(locale: str) -> CsvSeparator:
    """The separator a spreadsheet in ``locale`` expects: ";" where the decimal mark is ","
    (CLDR, via Babel), else ","."""
    try:
        decimal = get_decimal_symbol(locale)
    except (ValueError, UnknownLocaleError):
        return CsvSeparator.COMMA
    return CsvSeparator.SEMICOLON if decimal == "," else CsvSeparator.COMMA


def _csv_row(values: Iterable[Any]) -> list[Any]:
    return [spreadsheet_safe(v) for v in values]


def _canonical_name(players: dict[int, Player], pid: int) -> str:
    """The name a player's history lives on under (merges followed; loops cut)."""
    seen = set()
    player = players[pid]
    while player.merged_into_id in players and player.merged_into_id not in seen:
        seen.add(player.id)
        player = players[player.merged_into_id]
    return player.name


def iter_csv(
    session: Session,
    *,
    game_id: int | None = None,
    night_id: int | None = None,
    headings: Sequence[str] = CSV_COLUMNS,
    set_name: Callable[[int], str] = lambda n: f"double-{n}",
    separator: CsvSeparator = CsvSeparator.COMMA,
) -> Iterator[str]:
    """CSV text in chunks: the header, then one row per player per scored round (burned rounds
    have no hands and no rows), in night, game, round and seat order. ``seat`` counts from 1,
    ``total`` is the running total in points, ``went_out``/``out_on_double`` are 1 or 0,
    ``tiles`` lists the tiles left in hand when they were entered (space-separated), ``player``
    is the name after merges (their history joins). ``game_id`` is the database id (what joins
    CSV files), ``game_number`` the game's number in its night as the pages say it ("Game 2":
    counted among the night's games not deleted, as :attr:`Game.number_in_night`). ``set`` is
    ``set_name(set size)`` (the web export words it in the player's language).

    ``headings`` is the header row (the column ids unless given, e.g. :data:`CSV_HEADINGS`
    translated); ``separator`` splits the columns (:func:`csv_separator` of the reader's
    locale on the web). Checks the scope before yielding anything (raises :class:`NotFound`); then
    streams one query's rows, so everything costs little memory.
    """
    _game_ids(session, game_id, night_id)
    # Numbered over the night's live games before the scope narrows the rows (one game's CSV
    # still says "Game 3").
    numbers = (
        select(
            Game.id.label("game_id"),
            func.row_number().over(partition_by=Game.night_id, order_by=Game.id).label("number"),
        )
        .where(Game.deleted_at.is_(None))
        .subquery()
    )
    query = (
        select(
            GameNight.played_on,
            GameNight.place,
            Game.id,
            numbers.c.number,
            Game.share_token,
            Game.set_size,
            Round.number,
            Round.start_double,
            Seat.player_id,
            Seat.position,
            HandScore.points,
            HandScore.went_out,
            HandScore.out_on_double,
            HandScore.tiles,
        )
        .join(Round, HandScore.round_id == Round.id)
        .join(Seat, HandScore.seat_id == Seat.id)
        .join(Game, Round.game_id == Game.id)
        .join(GameNight, Game.night_id == GameNight.id)
        .join(numbers, numbers.c.game_id == Game.id)
        .where(Game.deleted_at.is_(None), GameNight.deleted_at.is_(None))
        .order_by(GameNight.played_on, GameNight.created_at, GameNight.id, Game.id, Round.number)
        .order_by(Seat.position)
    )
    if game_id is not None:
        query = query.where(Game.id == game_id)
    elif night_id is not None:
        query = query.where(Game.night_id == night_id)
    players = _players_by_id(session)
    names = {pid: _canonical_name(players, pid) for pid in players}
    rows = session.execute(query.execution_options(yield_per=2000))
    sets = {n: set_name(n) for n in SUPPORTED_SETS}
    return _csv_chunks(rows, names, headings, sets, separator)


def _csv_chunks(
    rows: Iterable[Any],
    names: dict[int, str],
    headings: Sequence[str],
    sets: dict[int, str],
    separator: CsvSeparator,
) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=str(separator), lineterminator="\r\n")
    writer.writerow(_csv_row(headings))
    totals: dict[tuple[int, int], int] = {}
    for count, row in enumerate(rows, start=1):
        (played_on, place, gid, game_number, key, set_size, number, double) = row[:8]
        player_id, position, points, went_out, on_double, tiles = row[8:]
        total = totals[gid, position] = totals.get((gid, position), 0) + points
        writer.writerow(
            _csv_row(
                (
                    iso(played_on),
                    place,
                    gid,
                    game_number,
                    key,
                    sets.get(set_size) or f"double-{set_size}",
                    number,
                    f"{double}-{double}",
                    names[player_id],
                    position + 1,
                    points,
                    int(went_out),
                    int(on_double),
                    total,
                    " ".join(tiles) if tiles else "",
                )
            )
        )
        if count % 500 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
            totals = {k: v for k, v in totals.items() if k[0] == gid}  # finished games: forget
    yield buffer.getvalue()
