"""Import of the JSON export document (shape in :mod:`companion.history.exchange`).

Two steps. :func:`validate` walks the whole document and collects *every* problem with its JSON
path (``$.nights[0].games[1].rounds[2].hands[0].tiles[1]``); tiles, sets and house rules are
checked by the rules engine. Only a document without problems is written, in one transaction that
is rolled back on any error: a refused file imports nothing.

Nothing is duplicated: each item is matched to what is already in the database by a natural key
and only what is new is added.

* a game is its ``key`` (the share token, unique); a game already there is kept as it is (the
  database's version wins, even if the file has more rounds), with its rounds, audit and rulings;
* a night is the night of one of its games already there, else (date, place, created_at);
* a player is the first player not yet matched in this import with the same name key and the
  same merge target (merge targets are matched first), else a new player;
* a ruling without a game is (created_at, category, summary).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import insert, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..engine import CATEGORIES, DominoSet, EngineError, RuleSet, Tile, answer, score_hand
from ..engine.rules import check_players
from ..games.setup import NAME_MAX, stored_key
from ..models import (
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
from ..services.results import record_games
from ..text import clean_text, forbidden_characters
from ..words import error_words

#: the format tag of version 1 of the document
FORMAT = "chickenfoot-companion/v1"

GAME_STATUSES = ("active", "finished")
ROUND_STATUSES = ("scored", "burned")
ROUND_OUTCOMES = (None, "out", "blocked")
#: bounds that keep values inside the columns (PostgreSQL enforces them; SQLite does not)
MAX_POINTS = 1_000_000
MAX_SEAT = 11
#: keys of audit snapshots whose value is a seat's database id (written as {"$seat": position})
SEAT_ID_KEYS = frozenset({"seat_id", "starter_seat_id"})
#: new games written per group of bulk inserts
BATCH = 500
#: deepest nesting of arrays and objects accepted (the format itself needs 8; rulings' questions
#: and audit snapshots a few more): deeper files are refused before anything walks them
MAX_DEPTH = 32
#: most digits of a whole number in the file (every number of the format fits in 64 bits)
MAX_DIGITS = 18
#: what a game key (a share token, used in links) is made of
GAME_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")

_MISSING = object()


@dataclass(frozen=True)
class Problem:
    """Something wrong in a document: where (a JSON path from ``$``) and what, in one sentence."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class ImportReport:
    """What an import did.

    Attributes:
        problems: everything wrong with the file; when not empty nothing was imported.
        added: kind ("players", "nights", "games", "rounds", "rulings") -> rows added.
        kept: kind -> items of the file that were already in the database (left as they were).
        restored: kind ("nights", "games") -> deleted items the file brought back (their
            ``deleted_at`` cleared): a backup undoes a deletion.
        new_games: the keys (share tokens) of the games added.
    """

    problems: list[Problem] = field(default_factory=list)
    added: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    restored: Counter[str] = field(default_factory=Counter)
    new_games: list[str] = field(default_factory=list)
    cleaned: int = 0

    @property
    def ok(self) -> bool:
        """True when the file was accepted (possibly adding nothing new)."""
        return not self.problems

    def lines(self) -> list[str]:
        """The report as plain lines of text, for the command line."""
        if self.problems:
            head = f"Refused: {len(self.problems)} problem(s) found; nothing was imported."
            return [head, *(f"  {p}" for p in self.problems)]
        kinds = ("players", "nights", "games", "rounds", "rulings")
        added = ", ".join(f"{self.added[k]} {k}" for k in kinds)
        kept = ", ".join(f"{self.kept[k]} {k}" for k in kinds if k != "rounds")
        lines = [f"Imported: added {added}.", f"Already there (kept as they were): {kept}."]
        if self.cleaned:
            lines.append(f"Invisible control characters were removed from {self.cleaned} text(s).")
        if self.restored:
            back = ", ".join(f"{self.restored[k]} {k}" for k in ("nights", "games"))
            lines.append(f"Restored (they had been deleted): {back}.")
        return lines


# --- parsing and validation ----------------------------------------------------------------------


class _Unreadable(ValueError):
    """A JSON value this format never holds (a huge or non-finite number)."""


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Unreadable(f"a number with {len(text.lstrip('-'))} digits")
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or len(text) > 40:
        raise _Unreadable(f"the number {text[:20]}")
    return value


def _constant(text: str) -> float:
    raise _Unreadable(f"the number {text}")


def _too_deep(doc: Any) -> bool:
    """True when arrays/objects in ``doc`` nest deeper than :data:`MAX_DEPTH` (iterative:
    a deep file cannot exhaust the stack here)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


def parse_document(source: str | bytes | dict[str, Any]) -> tuple[Any, list[Problem]]:
    """Decode JSON text (or take an already decoded document). Returns (document, problems).

    Refused with one problem each, before anything else looks at them: text that is not UTF-8
    or not JSON, numbers with more than :data:`MAX_DIGITS` digits or that are not finite, and
    arrays/objects nested deeper than :data:`MAX_DEPTH`.
    """
    if isinstance(source, dict):
        doc: Any = source
    else:
        doc, problems = _decode(source)
        if problems:
            return None, problems
    if _too_deep(doc):
        message = _(
            "The file nests lists and objects deeper than %(depth)s levels.", depth=MAX_DEPTH
        )
        return None, [Problem("$", message)]
    return doc, []


def _decode(source: str | bytes) -> tuple[Any, list[Problem]]:
    text = ""
    try:
        text = source.decode("utf-8-sig") if isinstance(source, bytes) else source
        doc = json.loads(
            text, parse_int=_whole_number, parse_float=_decimal, parse_constant=_constant
        )
        return doc, []
    except RecursionError:
        message = _(
            "The file nests lists and objects deeper than %(depth)s levels.", depth=MAX_DEPTH
        )
        return None, [Problem("$", message)]
    except _Unreadable as exc:
        return None, [
            Problem("$", _("The file holds %(exc)s, which this format never has.", exc=exc))
        ]
    except UnicodeDecodeError:
        return None, [Problem("$", _("The file is not UTF-8 text."))]
    except json.JSONDecodeError as exc:
        if _looks_like_csv(text):
            message = _("Only JSON backups can be imported; this looks like a CSV export.")
            return None, [Problem("$", message)]
        # exc.msg may end in "at" ("Unterminated string starting at"): keep the place apart.
        where = _("line %(line)s, column %(column)s", line=exc.lineno, column=exc.colno)
        return None, [
            Problem(
                "$", _("The file is not valid JSON: %(msg)s; %(where)s.", msg=exc.msg, where=where)
            )
        ]


def _looks_like_csv(text: str) -> bool:
    """True when ``text`` starts like a CSV file (a first line of comma-separated names, not
    a JSON object or array), e.g. the CSV export offered next to the JSON one."""
    first = text.lstrip().split("\n", 1)[0]
    return bool(first) and first[0] not in "{[" and first.count(",") >= 2


class _Checker:
    """Collects problems while walking a document; each check returns the value or _MISSING."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def obj(self, value: Any, path: str, required: tuple[str, ...], optional=()) -> dict | None:
        if not isinstance(value, dict):
            self.add(path, _("must be an object."))
            return None
        for name in required:
            if name not in value:
                self.add(f"{path}.{name}", _("is missing."))
        for name in value:
            if name not in required and name not in optional:
                self.add(f"{path}.{name}", _("is not a field of this format."))
        return value

    def array(self, data: dict, name: str, path: str) -> list:
        value = data.get(name, _MISSING)
        if value is _MISSING:
            return []
        if not isinstance(value, list):
            self.add(f"{path}.{name}", _("must be a list."))
            return []
        return value

    def text(self, data: dict, name: str, path: str, *, max_len: int, min_len: int = 0) -> Any:
        value = data.get(name, _MISSING)
        if value is _MISSING:
            return value
        if not isinstance(value, str):
            self.add(f"{path}.{name}", _("must be text."))
        elif not min_len <= len(value) <= max_len:
            self.add(
                f"{path}.{name}",
                _(
                    "must have %(min_len)s to %(max_len)s characters.",
                    min_len=min_len,
                    max_len=max_len,
                ),
            )
        elif "\x00" in value:  # PostgreSQL cannot store it
            self.add(f"{path}.{name}", _("must not contain a NUL character."))
        else:
            return value
        return _MISSING

    def integer(
        self, data: dict, name: str, path: str, lo: int, hi: int, nullable: bool = False
    ) -> Any:
        value = data.get(name, _MISSING)
        if value is _MISSING or (value is None and nullable):
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(f"{path}.{name}", _("must be a whole number."))
        elif not lo <= value <= hi:
            self.add(
                f"{path}.{name}",
                _("must be between %(lo)s and %(hi)s, not %(value)s.", lo=lo, hi=hi, value=value),
            )
        else:
            return value
        return _MISSING

    def boolean(self, data: dict, name: str, path: str) -> Any:
        value = data.get(name, _MISSING)
        if value is not _MISSING and not isinstance(value, bool):
            self.add(f"{path}.{name}", _("must be true or false."))
            return _MISSING
        return value

    def choice(self, data: dict, name: str, path: str, choices: tuple) -> Any:
        value = data.get(name, _MISSING)
        if value is not _MISSING and value not in choices:
            shown = ", ".join("null" if c is None else c for c in choices)
            self.add(
                f"{path}.{name}",
                _("must be one of %(shown)s, not %(value)s.", shown=shown, value=repr(value)),
            )
            return _MISSING
        return value

    def moment(self, data: dict, name: str, path: str, nullable: bool = False) -> Any:
        value = data.get(name, _MISSING)
        if value is _MISSING or (value is None and nullable):
            return value
        if to_datetime(value) is None:
            self.add(f"{path}.{name}", _("must be a date and time like 2026-11-28T19:30:00."))
            return _MISSING
        return value

    def json_object(self, data: dict, name: str, path: str) -> Any:
        value = data.get(name, _MISSING)
        if value is not _MISSING and not isinstance(value, dict):
            self.add(f"{path}.{name}", _("must be an object."))
            return _MISSING
        return value


def to_datetime(value: Any) -> datetime | None:
    """ISO 8601 text -> naive UTC datetime (an offset is converted to UTC); None if invalid."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def to_date(value: Any) -> date | None:
    """ISO date text (``2026-11-28``) -> date; None if invalid."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def validate(doc: Any) -> list[Problem]:
    """Every problem in ``doc`` (empty when it can be imported), each with its JSON path."""
    check = _Checker()
    top = check.obj(doc, "$", ("format", "players", "nights"), ("scope", "rulings"))
    if top is None:
        return check.problems
    if top.get("format") != FORMAT:
        # Another format or version: the rest would only produce noise.
        return [
            Problem(
                "$.format",
                _(
                    "must be %(format)s, not %(value)s.",
                    format=repr(FORMAT),
                    value=repr(top.get("format")),
                ),
            )
        ]
    check.choice(top, "scope", "$", ("all", "night", "game"))
    refs = _check_players(check, check.array(top, "players", "$"))
    keys: set[str] = set()
    for n, night in enumerate(check.array(top, "nights", "$")):
        _check_night(check, night, f"$.nights[{n}]", refs, keys)
    for r, ruling in enumerate(check.array(top, "rulings", "$")):
        _check_ruling(check, ruling, f"$.rulings[{r}]")
    return check.problems


def _check_players(check: _Checker, players: list) -> set[str]:
    refs: dict[str, str | None] = {}
    for i, player in enumerate(players):
        path = f"$.players[{i}]"
        data = check.obj(player, path, ("ref", "name", "name_key", "created_at", "merged_into"))
        if data is None:
            continue
        ref = check.text(data, "ref", path, min_len=1, max_len=40)
        check.text(data, "name", path, min_len=1, max_len=60)
        check.text(data, "name_key", path, min_len=1, max_len=60)
        check.moment(data, "created_at", path)
        target = data.get("merged_into")
        if target is not None and not isinstance(target, str):
            check.add(f"{path}.merged_into", _("must be a player reference or null."))
            target = None
        if ref is _MISSING:
            continue
        if ref in refs:
            check.add(f"{path}.ref", _("%(ref)s is used by two players.", ref=repr(ref)))
        refs[ref] = target
    for i, player in enumerate(players):
        target = player.get("merged_into") if isinstance(player, dict) else None
        if isinstance(target, str) and target not in refs:
            check.add(
                f"$.players[{i}].merged_into",
                _("refers to an unknown player %(target)s.", target=repr(target)),
            )
    for i, player in enumerate(players):
        ref = player.get("ref") if isinstance(player, dict) else None
        if isinstance(ref, str) and _merge_loops(refs, ref):
            check.add(f"$.players[{i}].merged_into", _("merges lead back to this player."))
    return set(refs)


def _merge_loops(targets: dict[str, str | None], ref: str) -> bool:
    seen = {ref}
    current = targets.get(ref)
    while current is not None:
        if current in seen:
            return current == ref
        seen.add(current)
        current = targets.get(current)
    return False


def _check_night(check: _Checker, night: Any, path: str, refs: set[str], keys: set[str]) -> None:
    data = check.obj(night, path, ("played_on", "place", "notes", "created_at", "games"))
    if data is None:
        return
    if "played_on" in data and to_date(data["played_on"]) is None:
        check.add(f"{path}.played_on", _("must be a date like 2026-11-28."))
    check.text(data, "place", path, max_len=120)
    check.text(data, "notes", path, max_len=100_000)
    check.moment(data, "created_at", path)
    for g, game in enumerate(check.array(data, "games", path)):
        _check_game(check, game, f"{path}.games[{g}]", refs, keys)


_GAME_FIELDS = (
    "key",
    "set_size",
    "preset",
    "rules",
    "hand_size",
    "chosen_spokes",
    "status",
    "created_at",
    "updated_at",
    "finished_at",
    "seats",
    "rounds",
    "audit",
    "rulings",
)


def _check_game(check: _Checker, game: Any, path: str, refs: set[str], keys: set[str]) -> None:
    data = check.obj(game, path, _GAME_FIELDS)
    if data is None:
        return
    key = check.text(data, "key", path, min_len=1, max_len=40)
    if key is not _MISSING and not GAME_KEY.fullmatch(key):
        check.add(f"{path}.key", _("must be a game's link key: letters, digits, - and _ only."))
    elif key is not _MISSING:
        if key in keys:
            check.add(
                f"{path}.key", _("%(key)s is the key of another game in this file.", key=repr(key))
            )
        keys.add(key)
    dominoes = _check_set(check, data, path)
    _check_rules(check, data, path, dominoes)
    check.text(data, "preset", path, max_len=40)
    check.integer(data, "hand_size", path, 1, 190, nullable=True)
    check.integer(data, "chosen_spokes", path, 1, 18, nullable=True)
    check.choice(data, "status", path, GAME_STATUSES)
    for name in ("created_at", "updated_at"):
        check.moment(data, name, path)
    check.moment(data, "finished_at", path, nullable=True)
    seats = check.array(data, "seats", path)
    positions = _check_seats(check, seats, f"{path}.seats", refs, "seats" in data)
    _check_rounds(check, check.array(data, "rounds", path), path, positions, dominoes, data)
    for a, entry in enumerate(check.array(data, "audit", path)):
        _check_audit(check, entry, f"{path}.audit[{a}]", positions)
    for r, ruling in enumerate(check.array(data, "rulings", path)):
        _check_ruling(check, ruling, f"{path}.rulings[{r}]")


def _check_set(check: _Checker, data: dict, path: str) -> DominoSet | None:
    value = data.get("set_size", _MISSING)
    if value is _MISSING:
        return None
    try:
        return DominoSet(value)
    except EngineError as exc:
        check.add(f"{path}.set_size", error_words(exc))
        return None


def _check_rules(check: _Checker, data: dict, path: str, dominoes: DominoSet | None) -> None:
    rules = check.json_object(data, "rules", path)
    if rules is _MISSING or dominoes is None:
        return
    try:
        RuleSet.from_dict({**rules, "set_size": dominoes.n})
    except EngineError as exc:
        where = exc.where.replace("ruleset", f"{path}.rules", 1) if exc.where else f"{path}.rules"
        check.add(where, error_words(exc))


def _check_seats(
    check: _Checker, seats: list, path: str, refs: set[str], present: bool = True
) -> set[int]:
    positions: set[int] = set()
    players: set[str] = set()
    for s, seat in enumerate(seats):
        where = f"{path}[{s}]"
        data = check.obj(seat, where, ("position", "player"))
        if data is None:
            continue
        position = check.integer(data, "position", where, 0, MAX_SEAT)
        if position is not _MISSING:
            if position in positions:
                check.add(
                    f"{where}.position",
                    _("seat %(position)s is taken by two players.", position=position),
                )
            positions.add(position)
        player = data.get("player")
        if not isinstance(player, str) or player not in refs:
            check.add(
                f"{where}.player", _("refers to an unknown player %(player)s.", player=repr(player))
            )
            continue
        if player in players:
            check.add(
                f"{where}.player", _("%(player)s sits at this game twice.", player=repr(player))
            )
        players.add(player)
    if present:  # a missing list is reported once, as missing
        try:
            check_players(len(seats))
        except EngineError as exc:
            check.add(path, error_words(exc))
    return positions


_ROUND_FIELDS = (
    "number",
    "start_double",
    "status",
    "outcome",
    "starter",
    "created_at",
    "updated_at",
    "hands",
)


def _check_rounds(
    check: _Checker,
    rounds: list,
    game_path: str,
    positions: set[int],
    dominoes: DominoSet | None,
    game: dict,
) -> None:
    numbers: set[int] = set()
    doubles: set[int] = set()
    top = dominoes.n if dominoes else 18
    for r, rnd in enumerate(rounds):
        path = f"{game_path}.rounds[{r}]"
        data = check.obj(rnd, path, _ROUND_FIELDS)
        if data is None:
            continue
        number = check.integer(data, "number", path, 1, top + 1)
        if number is not _MISSING and number in numbers:
            check.add(f"{path}.number", _("round %(number)s appears twice.", number=number))
        numbers.add(number)
        double = check.integer(data, "start_double", path, 0, top)
        if double is not _MISSING and double in doubles:
            check.add(
                f"{path}.start_double",
                _("the %(double)s-%(double)s starts two rounds.", double=double),
            )
        doubles.add(double)
        status = check.choice(data, "status", path, ROUND_STATUSES)
        check.choice(data, "outcome", path, ROUND_OUTCOMES)
        starter = check.integer(data, "starter", path, 0, MAX_SEAT, nullable=True)
        if starter not in (None, _MISSING) and starter not in positions:
            check.add(f"{path}.starter", _("there is no seat %(starter)s.", starter=starter))
        check.moment(data, "created_at", path)
        check.moment(data, "updated_at", path)
        hands = check.array(data, "hands", path)
        if status == "burned" and hands:
            check.add(f"{path}.hands", _("a burned round has no hands."))
        round_double = Tile(double, double) if double is not _MISSING else None
        _check_hands(check, hands, f"{path}.hands", positions, dominoes, round_double, game)


def _check_hands(
    check: _Checker,
    hands: list,
    path: str,
    positions: set[int],
    dominoes: DominoSet | None,
    round_double: Tile | None,
    game: dict,
) -> None:
    seats: set[int] = set()
    seen: dict[Tile, str] = {}
    out_seen: str | None = None
    rules = _ruleset_or_none(game, dominoes)
    for h, hand in enumerate(hands):
        where = f"{path}[{h}]"
        data = check.obj(hand, where, ("seat", "points", "went_out", "out_on_double", "tiles"))
        if data is None:
            continue
        seat = check.integer(data, "seat", where, 0, MAX_SEAT)
        if seat is not _MISSING:
            if seat not in positions:
                check.add(f"{where}.seat", _("there is no seat %(seat)s.", seat=seat))
            elif seat in seats:
                check.add(
                    f"{where}.seat", _("seat %(seat)s has two hands in this round.", seat=seat)
                )
            seats.add(seat)
        check.integer(data, "points", where, 0, MAX_POINTS)
        went_out = check.boolean(data, "went_out", where)
        if check.boolean(data, "out_on_double", where) is True and went_out is False:
            check.add(
                f"{where}.out_on_double", _("only a player who went out can go out on a double.")
            )
        if went_out is True:
            if out_seen is not None:
                check.add(
                    f"{where}.went_out",
                    _("the player at %(out_seen)s went out already.", out_seen=out_seen),
                )
            out_seen = out_seen or where
        tiles = data.get("tiles")
        if tiles is None or dominoes is None:
            continue
        try:
            held = dominoes.parse_hand(tiles, f"{where}.tiles")
        except EngineError as exc:
            check.add(exc.where or f"{where}.tiles", error_words(exc))
            continue
        for t, tile in enumerate(held):
            if tile in seen:
                check.add(
                    f"{where}.tiles[{t}]",
                    _("%(tile)s is also in the hand at %(seen)s.", tile=tile, seen=seen[tile]),
                )
            seen[tile] = where
        if rules is not None:
            try:  # the engine refuses the centre double in a hand and tiles after going out
                score_hand(held, rules, went_out=went_out is True, round_double=round_double)
            except EngineError as exc:
                check.add(f"{where}.tiles", error_words(exc))


def _ruleset_or_none(game: dict, dominoes: DominoSet | None) -> RuleSet | None:
    if dominoes is None or not isinstance(game.get("rules"), dict):
        return None
    try:
        return RuleSet.from_dict({**game["rules"], "set_size": dominoes.n})
    except EngineError:
        return None  # already reported by _check_rules


def _check_audit(check: _Checker, entry: Any, path: str, positions: set[int]) -> None:
    fields = ("at", "action", "summary", "before", "after", "undone")
    data = check.obj(entry, path, fields)
    if data is None:
        return
    check.moment(data, "at", path)
    check.text(data, "action", path, min_len=1, max_len=40)
    check.text(data, "summary", path, max_len=300)
    check.boolean(data, "undone", path)
    for name in ("before", "after"):
        for where, seat in _seat_markers(data.get(name), f"{path}.{name}"):
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in positions:
                check.add(where, _("there is no seat %(seat)s.", seat=repr(seat)))
        _check_round_snapshot(check, data.get(name), f"{path}.{name}")
        if _has_forbidden_text(data.get(name)):
            check.add(f"{path}.{name}", _("must not contain control characters."))


#: the fields of a round as the audit trail keeps it (companion.games.rounds.round_snapshot)
_SNAPSHOT_FIELDS = ("number", "start_double", "status", "outcome", "starter_seat_id", "hands")
_SNAPSHOT_HAND_FIELDS = ("seat_id", "points", "went_out", "out_on_double", "tiles")


def _check_round_snapshot(check: _Checker, value: Any, path: str) -> None:
    """An audit snapshot that holds a round (it has a ``number`` or ``hands``) must have
    exactly the shape the app writes, as undo and the audit pages read it; other snapshots
    (a new game's settings, a note) are kept as they are."""
    if not isinstance(value, dict) or not {"number", "hands"} & value.keys():
        return
    data = check.obj(value, path, _SNAPSHOT_FIELDS)
    if data is None:
        return
    check.integer(data, "number", path, 1, 19)
    check.integer(data, "start_double", path, 0, 18)
    check.choice(data, "status", path, ROUND_STATUSES)
    check.choice(data, "outcome", path, ROUND_OUTCOMES)
    if data.get("starter_seat_id") is not None and not _seat_marker(data["starter_seat_id"])[0]:
        check.add(f"{path}.starter_seat_id", _('must be a seat ({"$seat": position}) or null.'))
    for h, hand in enumerate(check.array(data, "hands", path)):
        where = f"{path}.hands[{h}]"
        fields = check.obj(hand, where, _SNAPSHOT_HAND_FIELDS)
        if fields is None:
            continue
        if not _seat_marker(fields.get("seat_id"))[0]:
            check.add(f"{where}.seat_id", _('must be a seat ({"$seat": position}).'))
        check.integer(fields, "points", where, 0, MAX_POINTS)
        check.boolean(fields, "went_out", where)
        check.boolean(fields, "out_on_double", where)
        tiles = fields.get("tiles")
        if tiles is not None and not (
            isinstance(tiles, list) and all(isinstance(t, str) and len(t) <= 5 for t in tiles)
        ):
            check.add(f"{where}.tiles", _("must be a list of tiles or null."))


def _seat_marker(value: Any) -> tuple[bool, Any]:
    """(True, position) for ``{"$seat": position}``, else (False, None)."""
    if isinstance(value, dict) and len(value) == 1 and "$seat" in value:
        return True, value["$seat"]
    return False, None


def _seat_markers(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every ``{"$seat": position}`` inside ``value``, with its path."""
    found, seat = _seat_marker(value)
    if found:
        return [(path, seat)]
    if isinstance(value, dict):
        return [m for k, v in value.items() for m in _seat_markers(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [m for i, v in enumerate(value) for m in _seat_markers(v, f"{path}[{i}]")]
    return []


def seat_ids(value: Any, seats: dict[int, int]) -> Any:
    """The inverse of :func:`companion.history.exchange.seat_refs`: ``{"$seat": position}``
    becomes that seat's new database id (``seats``: position -> id)."""
    found, seat = _seat_marker(value)
    if found:
        return seats[seat]
    if isinstance(value, dict):
        return {k: seat_ids(v, seats) for k, v in value.items()}
    if isinstance(value, list):
        return [seat_ids(v, seats) for v in value]
    return value


def _check_ruling(check: _Checker, ruling: Any, path: str) -> None:
    """A ruling is imported only when the checker could have made it: its category is one of
    QUESTIONS.md, its question is that category's question and the rules engine reads it, its
    house rules are a RuleSet, and nothing in it is unstorable text."""
    fields = ("created_at", "category", "question", "answer", "rules", "summary")
    data = check.obj(ruling, path, fields)
    if data is None:
        return
    check.moment(data, "created_at", path)
    category = check.choice(data, "category", path, CATEGORIES)
    check.text(data, "summary", path, max_len=300)
    blobs = {name: check.json_object(data, name, path) for name in ("question", "answer", "rules")}
    for name, value in blobs.items():
        if isinstance(value, dict) and _has_forbidden_text(value):
            check.add(f"{path}.{name}", _("must not contain control characters."))
            blobs[name] = _MISSING
    question, rules = blobs["question"], blobs["rules"]
    if isinstance(question, dict) and category is not _MISSING:
        problem = ruling_question_problem(category, question)
        if problem:
            check.add(f"{path}.question", problem)
    if isinstance(rules, dict):
        try:
            RuleSet.from_dict(rules)
        except (EngineError, TypeError, ValueError, AttributeError) as exc:
            check.add(
                f"{path}.rules", _("are not house rules this version knows: %(exc)s", exc=exc)
            )


def ruling_question_problem(category: str, question: dict[str, Any]) -> str | None:
    """Why ``question`` cannot be the question of a ruling of ``category`` (None when it can):
    it must name that category and the rules engine must read it without an error."""
    if question.get("category") != category:
        return _(
            "must be a %(category)s question, like the ruling's category.", category=repr(category)
        )
    verdict = answer(question)
    error = verdict.get("error") if isinstance(verdict, dict) else None
    if isinstance(error, dict):
        where = f" (at {error.get('where')})" if error.get("where") else ""
        return f"is not a question the rules checker can read{where}: {error.get('message')}"
    return None


def _has_forbidden_text(value: Any) -> bool:
    """True when a key or string anywhere in ``value`` has a forbidden character
    (:func:`companion.text.forbidden_characters`; PostgreSQL cannot store NUL)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and forbidden_characters(item):
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _number_same_names(people: list) -> None:
    """Live players (not merged) of one file with the same name key would be one player in the
    database (it keeps one live player per key): the second and later get a numbered name,
    "Ann (2)", as the migration that introduced the rule did with existing data, so a backup
    taken before it still imports, twice over to the same result."""
    live = [
        p
        for p in people
        if isinstance(p, dict) and isinstance(p.get("name"), str) and p.get("merged_into") is None
    ]
    used = {p["name_key"] for p in live}
    seen: set[str] = set()
    for player in live:
        if player["name_key"] not in seen:
            seen.add(player["name_key"])
            continue
        number = 2
        while True:
            suffix = f" ({number})"
            name = player["name"][: NAME_MAX - len(suffix)].rstrip() + suffix
            if stored_key(name) not in used:
                break
            number += 1
        player["name"], player["name_key"] = name, stored_key(name)
        used.add(player["name_key"])
        seen.add(player["name_key"])


def clean_free_text(doc: Any) -> int:
    """Apply the one rule for free text (:func:`companion.text.clean_text`) to the document's
    player names, night places and notes, in place, as the forms do; a player's name key is
    recomputed from the cleaned name. Returns how many texts changed (a backup taken before the
    rule existed may carry control characters: they are removed, so it can still be restored).
    Values that are not text are left for :func:`validate` to refuse."""
    changed = 0

    def clean(data: Any, name: str, multiline: bool = False) -> None:
        nonlocal changed
        if isinstance(data, dict) and isinstance(data.get(name), str):
            cleaned = clean_text(data[name], multiline=multiline)
            changed += cleaned != data[name]
            data[name] = cleaned

    if not isinstance(doc, dict):
        return 0
    people = doc.get("players") if isinstance(doc.get("players"), list) else []
    for player in people:
        clean(player, "name")
        if isinstance(player, dict) and isinstance(player.get("name"), str):
            player["name_key"] = stored_key(player["name"])
    _number_same_names(people)
    for night in doc.get("nights") if isinstance(doc.get("nights"), list) else []:
        clean(night, "place")
        clean(night, "notes", multiline=True)
    return changed


# --- writing -------------------------------------------------------------------------------------


def import_document(session: Session, source: str | bytes | dict[str, Any]) -> ImportReport:
    """Validate ``source`` (JSON text or a decoded document) and add what is new, in one
    transaction committed at the end.

    Returns an :class:`ImportReport`; when it has problems nothing was written (the session was
    rolled back). Never raises for bad input.
    """
    doc, problems = parse_document(source)
    if not problems and isinstance(source, dict):
        doc = json.loads(json.dumps(doc))  # cleaned below: never change the caller's document
    cleaned = clean_free_text(doc) if not problems else 0
    report = ImportReport(problems=problems or validate(doc), cleaned=cleaned)
    if report.problems:
        return report
    try:
        _Writer(session, report).write(doc)
        session.commit()
    except (SQLAlchemyError, LookupError, TypeError, ValueError) as exc:
        # Validation should leave nothing for the database to refuse; if it still does, the
        # file is reported as refused and nothing stays half-written.
        session.rollback()
        report.added.clear()
        report.kept.clear()
        report.restored.clear()
        report.new_games.clear()
        detail = str(exc.orig) if getattr(exc, "orig", None) else str(exc)
        report.problems.append(
            Problem("$", _("The database refused the import: %(detail)s", detail=detail))
        )
    return report


class _Writer:
    """Adds a validated document's new items to the session (no commit)."""

    def __init__(self, session: Session, report: ImportReport) -> None:
        self.session = session
        self.report = report
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
            self.report.added["players"] += 1
        else:
            self.report.kept["players"] += 1
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
            self.report.added["nights"] += 1
        else:
            self._keep_or_restore(night, "nights")
        return night.id

    def _keep_or_restore(self, row: GameNight | Game, kind: str) -> None:
        """Count a night or game of the file that is already here; a deleted one comes back
        (importing a backup is how a deletion is undone after the restore window)."""
        if row.deleted_at is None:
            self.report.kept[kind] += 1
        else:
            row.deleted_at = None
            self.report.restored[kind] += 1

    def _games(self, batch: list[tuple[int, dict]]) -> None:
        """Insert new games with their seats, rounds, hands, audit and rulings: a few bulk
        INSERT ... RETURNING statements per batch (ids come back in parameter order)."""
        game_ids = self._insert(Game, [_game_row(night_id, data) for night_id, data in batch])
        seat_rows = [
            {"game_id": gid, "position": s["position"], "player_id": self.players[s["player"]].id}
            for gid, (_, data) in zip(game_ids, batch, strict=True)
            for s in data["seats"]
        ]
        seat_ids = iter(self._insert(Seat, seat_rows))
        rounds, hands, audit, rulings = [], [], [], []
        for gid, (_key, data) in zip(game_ids, batch, strict=True):
            seats = {s["position"]: next(seat_ids) for s in data["seats"]}
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
        self.report.added["games"] += len(batch)
        self.report.new_games += [data["key"] for _, data in batch]
        self.report.added["rounds"] += len(rounds)
        self.report.added["rulings"] += len(rulings)

    def _insert(self, model: type, rows: list[dict[str, Any]]) -> list[int]:
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
            self.report.kept["rulings"] += 1
            return
        self.session.execute(insert(Ruling), [_ruling_row(None, data)])
        self.report.added["rulings"] += 1


def _game_row(night_id: int, data: dict) -> dict[str, Any]:
    return {
        "night_id": night_id,
        "share_token": data["key"],
        "edit_token": new_token(),  # edit links are not exported: the import makes a new one
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
