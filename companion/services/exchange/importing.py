"""Import of the JSON export document (shape in :mod:`companion.services.exchange.export`).

Two steps. :func:`validate` collects *every* problem of the document with its JSON path
(``$.nights[0].games[1].rounds[2].hands[0].tiles[1]``): the shape against the declared JSON
Schema (:mod:`.shape`, ``schema/v1.json``), then by hand only what a schema cannot say
(references, uniqueness, bounds that depend on the set) and, through the rules engine, tiles,
sets and house rules. Only a document without problems is written, in one transaction that
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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from flask_babel import gettext as _
from sqlalchemy import insert, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ...engine import CATEGORIES, DominoSet, EngineError, RuleSet, Tile, answer, score_hand
from ...engine.rules import check_players
from ...models import (
    NAME_MAX,
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
from ...text import clean_text, forbidden_characters
from ...vocab import RoundStatus
from ...words import error_words
from ..game_setup import stored_key
from ..results import record_games
from .shape import Problem, shape_problems, to_date, to_datetime

#: the format tag of version 1 of the document
FORMAT = "chickenfoot-companion/v1"

#: keys of audit snapshots whose value is a seat's database id (written as {"$seat": position})
SEAT_ID_KEYS = frozenset({"seat_id", "starter_seat_id"})
#: new games written per group of bulk inserts
BATCH = 500
#: deepest nesting of arrays and objects accepted (the format itself needs 8; rulings' questions
#: and audit snapshots a few more): deeper files are refused before anything walks them
MAX_DEPTH = 32
#: most digits of a whole number in the file (every number of the format fits in 64 bits)
MAX_DIGITS = 18


@dataclass
class ImportReport:
    """What an import did.

    Attributes:
        problems: everything wrong with the file; when not empty nothing was imported.
        added: kind ("players", "nights", "games", "rounds", "rulings") -> rows added.
        kept: kind -> items of the file that were already in the database (left as they were).
        restored: kind ("nights", "games") -> deleted items the file brought back (their
            ``deleted_at`` cleared): a backup undoes a deletion, when the importer may
            (``may_restore`` of :func:`import_document`).
        new_games: the keys (share tokens) of the games added.
    """

    problems: list[Problem] = field(default_factory=list)
    added: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    restored: Counter[str] = field(default_factory=Counter)
    #: kind -> deleted items of the file left deleted: the importer may not undo the deletion
    not_restored: Counter[str] = field(default_factory=Counter)
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
        if self.not_restored:
            left = ", ".join(f"{self.not_restored[k]} {k}" for k in ("nights", "games"))
            lines.append(f"Left deleted (deleted here; not restored by this import): {left}.")
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
        where = _("line %(line)s, column %(column)s", line=exc.lineno, column=exc.colno)
        return None, [Problem("$", _json_reason(exc.msg, exc.pos, text, where))]


def _json_reason(msg: str, pos: int, text: str, where: str) -> str:
    """Why ``text`` is not JSON, in the player's words: the parser's English (``msg``, from
    :class:`json.JSONDecodeError`; ``pos`` is the character offset) is only matched, never
    shown. ``where`` is the line and column, kept in every reason."""
    kind = msg.split(" ", 1)[0]  # the parser's first word: "Unterminated", "Expecting", ...
    if kind == "Expecting" and msg.endswith("value") and not text[:pos].strip():
        return _("This is not a JSON backup (is it a CSV export?); %(where)s.", where=where)
    if kind == "Unterminated" or (kind == "Expecting" and not text[pos:].strip()):
        return _(
            "The file is not valid JSON: it ends in the middle (is it cut short?); %(where)s.",
            where=where,
        )
    if kind == "Invalid":  # a control character or a bad escape inside a text
        return _(
            "The file is not valid JSON: a text holds a character JSON does not allow; %(where)s.",
            where=where,
        )
    if kind == "Extra":  # data after the document
        return _(
            "The file is not valid JSON: something follows the end of the backup; %(where)s.",
            where=where,
        )
    return _(
        "The file is not valid JSON: something is missing or out of place; %(where)s.", where=where
    )


def _looks_like_csv(text: str) -> bool:
    """True when ``text`` starts like a CSV file (a first line of names split by commas or
    semicolons, not a JSON object or array), e.g. the CSV export offered next to the JSON one
    (a byte order mark before it is no character of the file)."""
    first = text.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    return bool(first) and first[0] not in "{[" and max(first.count(","), first.count(";")) >= 2


def validate(doc: Any) -> list[Problem]:
    """Every problem in ``doc`` (empty when it can be imported), each with its JSON path, in
    document order: first the declared shape (:mod:`.shape`, JSON Schema), then what a
    schema cannot say (references, uniqueness, the set's bounds) and the rules engine's checks."""
    if not isinstance(doc, dict):
        return [Problem("$", _("must be an object."))]
    if doc.get("format") != FORMAT:
        # Another format or version: the rest would only produce noise.
        return [
            Problem(
                "$.format",
                _(
                    "must be %(format)s, not %(value)s.",
                    format=repr(FORMAT),
                    value=repr(doc.get("format")),
                ),
            )
        ]
    found = shape_problems(doc)
    taken = {p.path for p in found}
    check = _Checker(taken)
    refs = _check_players(check, _list(doc, "players"))
    keys: set[str] = set()
    for n, night in enumerate(_list(doc, "nights")):
        for g, game in enumerate(_list(night, "games")):
            _check_game(check, game, f"$.nights[{n}].games[{g}]", refs, keys)
    for r, ruling in enumerate(_list(doc, "rulings")):
        _check_ruling(check, ruling, f"$.rulings[{r}]")
    return sorted(found + check.problems, key=lambda p: _path_key(doc, p.path))


def _path_key(doc: Any, path: str) -> list[int]:
    """Where ``path`` is in ``doc``, for sorting in the file's own order (``[10]`` after
    ``[9]``, a field by its place in its object; a missing field after the ones present)."""
    key, node = [], doc
    for step in path.replace("[", ".[").split(".")[1:]:
        if step.startswith("[") and step[1:-1].isdigit():
            index = int(step[1:-1])
            node = node[index] if isinstance(node, list) and index < len(node) else None
        elif isinstance(node, dict) and step in node:
            index, node = list(node).index(step), node[step]
        else:
            index, node = len(node) if isinstance(node, dict | list) else 0, None
        key.append(index)
    return key


def _list(data: Any, name: str) -> list[Any]:
    """``data[name]`` when ``data`` is an object holding a list there, else [] (a wrong shape is
    the schema's problem, reported once)."""
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Collects the problems the schema cannot see, one per path: a path the schema already
    reported (a value of the wrong shape) gets no second problem."""

    def __init__(self, taken: set[str]) -> None:
        self.problems: list[Problem] = []
        self.taken = taken

    def add(self, path: str, message: str) -> None:
        if path not in self.taken:
            self.taken.add(path)
            self.problems.append(Problem(path, message))


def _check_players(check: _Checker, players: list[Any]) -> set[str]:
    refs: dict[str, str | None] = {}
    for i, player in enumerate(players):
        ref = player.get("ref") if isinstance(player, dict) else None
        if not isinstance(ref, str):
            continue
        if ref in refs:
            check.add(f"$.players[{i}].ref", _("%(ref)s is used by two players.", ref=repr(ref)))
        target = player.get("merged_into")
        refs[ref] = target if isinstance(target, str) else None
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


def _check_game(check: _Checker, game: Any, path: str, refs: set[str], keys: set[str]) -> None:
    if not isinstance(game, dict):
        return
    key = game.get("key")
    if isinstance(key, str):
        if key in keys:
            check.add(
                f"{path}.key", _("%(key)s is the key of another game in this file.", key=repr(key))
            )
        keys.add(key)
    dominoes = _check_set(check, game, path)
    _check_rules(check, game, path, dominoes)
    positions = _check_seats(check, game, f"{path}.seats", refs)
    _check_rounds(check, _list(game, "rounds"), path, positions, dominoes, game)
    for a, entry in enumerate(_list(game, "audit")):
        _check_audit(check, entry, f"{path}.audit[{a}]", positions)
    for r, ruling in enumerate(_list(game, "rulings")):
        _check_ruling(check, ruling, f"{path}.rulings[{r}]")


def _check_set(check: _Checker, data: dict[str, Any], path: str) -> DominoSet | None:
    value = data.get("set_size")
    if not _is_int(value):
        return None
    try:
        return DominoSet(value)
    except EngineError as exc:
        check.add(f"{path}.set_size", error_words(exc))
        return None


def _check_rules(
    check: _Checker, data: dict[str, Any], path: str, dominoes: DominoSet | None
) -> None:
    rules = data.get("rules")
    if not isinstance(rules, dict) or dominoes is None:
        return
    try:
        RuleSet.from_dict({**rules, "set_size": dominoes.n})
    except EngineError as exc:
        where = exc.where.replace("ruleset", f"{path}.rules", 1) if exc.where else f"{path}.rules"
        check.add(where, error_words(exc))


def _check_seats(check: _Checker, game: dict[str, Any], path: str, refs: set[str]) -> set[int]:
    seats = _list(game, "seats")
    positions: set[int] = set()
    players: set[str] = set()
    for s, seat in enumerate(seats):
        if not isinstance(seat, dict):
            continue
        where = f"{path}[{s}]"
        position = seat.get("position")
        if _is_int(position):
            if position in positions:
                check.add(
                    f"{where}.position",
                    _("seat %(position)s is taken by two players.", position=position),
                )
            positions.add(position)
        player = seat.get("player")
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
    if isinstance(game.get("seats"), list):  # a missing list is reported once, as missing
        try:
            check_players(len(seats))
        except EngineError as exc:
            check.add(path, error_words(exc))
    return positions


def _check_rounds(
    check: _Checker,
    rounds: list[Any],
    game_path: str,
    positions: set[int],
    dominoes: DominoSet | None,
    game: dict[str, Any],
) -> None:
    numbers: set[int] = set()
    doubles: set[int] = set()
    top = dominoes.n if dominoes else 18
    for r, rnd in enumerate(rounds):
        if not isinstance(rnd, dict):
            continue
        path = f"{game_path}.rounds[{r}]"
        number = _in_set(check, rnd, "number", path, 1, top + 1)
        if number is not None and number in numbers:
            check.add(f"{path}.number", _("round %(number)s appears twice.", number=number))
        numbers.add(number) if number is not None else None
        double = _in_set(check, rnd, "start_double", path, 0, top)
        if double is not None and double in doubles:
            check.add(
                f"{path}.start_double",
                _("the %(double)s-%(double)s starts two rounds.", double=double),
            )
        doubles.add(double) if double is not None else None
        starter = rnd.get("starter")
        if _is_int(starter) and starter not in positions:
            check.add(f"{path}.starter", _("there is no seat %(starter)s.", starter=starter))
        hands = _list(rnd, "hands")
        if rnd.get("status") == RoundStatus.BURNED and hands:
            check.add(f"{path}.hands", _("a burned round has no hands."))
        round_double = Tile(double, double) if double is not None else None
        _check_hands(check, hands, f"{path}.hands", positions, dominoes, round_double, game)


def _in_set(check: _Checker, data: dict[str, Any], name: str, path: str, lo: int, hi: int) -> Any:
    """``data[name]`` when it is a whole number within the game's set (lo..hi), else None."""
    value = data.get(name)
    if not _is_int(value):
        return None
    if not lo <= value <= hi:
        check.add(
            f"{path}.{name}",
            _("must be between %(lo)s and %(hi)s, not %(value)s.", lo=lo, hi=hi, value=value),
        )
        return None
    return value


def _check_hands(
    check: _Checker,
    hands: list[Any],
    path: str,
    positions: set[int],
    dominoes: DominoSet | None,
    round_double: Tile | None,
    game: dict[str, Any],
) -> None:
    seats: set[int] = set()
    seen: dict[Tile, str] = {}
    out_seen: str | None = None
    rules = _ruleset_or_none(game, dominoes)
    for h, hand in enumerate(hands):
        if not isinstance(hand, dict):
            continue
        where = f"{path}[{h}]"
        seat = hand.get("seat")
        if _is_int(seat):
            if seat not in positions:
                check.add(f"{where}.seat", _("there is no seat %(seat)s.", seat=seat))
            elif seat in seats:
                check.add(
                    f"{where}.seat", _("seat %(seat)s has two hands in this round.", seat=seat)
                )
            seats.add(seat)
        went_out = hand.get("went_out")
        if hand.get("out_on_double") is True and went_out is False:
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
        tiles = hand.get("tiles")
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


def _ruleset_or_none(game: dict[str, Any], dominoes: DominoSet | None) -> RuleSet | None:
    if dominoes is None or not isinstance(game.get("rules"), dict):
        return None
    try:
        return RuleSet.from_dict({**game["rules"], "set_size": dominoes.n})
    except EngineError:
        return None  # already reported by _check_rules


def _check_audit(check: _Checker, entry: Any, path: str, positions: set[int]) -> None:
    if not isinstance(entry, dict):
        return
    for name in ("before", "after"):
        for where, seat in _seat_markers(entry.get(name), f"{path}.{name}"):
            if not _is_int(seat) or seat not in positions:
                check.add(where, _("there is no seat %(seat)s.", seat=repr(seat)))
    for name in ("before", "after", "params"):
        if _has_forbidden_text(entry.get(name)):
            check.add(f"{path}.{name}", _("must not contain control characters."))


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
    """The inverse of :func:`companion.services.exchange.export.seat_refs`: ``{"$seat": position}``
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
    QUESTIONS.md (the schema), its question is that category's question and the rules engine
    reads it, its house rules are a RuleSet, and nothing in it is unstorable text."""
    if not isinstance(ruling, dict):
        return
    blobs = {name: ruling.get(name) for name in ("question", "answer", "rules")}
    for name, value in blobs.items():
        if isinstance(value, dict) and _has_forbidden_text(value):
            check.add(f"{path}.{name}", _("must not contain control characters."))
            blobs[name] = None
    question, rules, category = blobs["question"], blobs["rules"], ruling.get("category")
    if isinstance(question, dict) and category in CATEGORIES:
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
    people = doc.get("players")
    if not isinstance(people, list):
        people = []
    for player in people:
        clean(player, "name")
        if isinstance(player, dict) and isinstance(player.get("name"), str):
            player["name_key"] = stored_key(player["name"])
    _number_same_names(people)
    nights = doc.get("nights")
    for night in nights if isinstance(nights, list) else []:
        clean(night, "place")
        clean(night, "notes", multiline=True)
    return changed


# --- writing -------------------------------------------------------------------------------------


#: who may undo a deletion by importing: called with a deleted night or game of the file
MayRestore = Callable[[GameNight | Game], bool]


def _restore_all(_row: GameNight | Game) -> bool:
    return True  # the command line: whoever runs it owns the database


def import_document(
    session: Session,
    source: str | bytes | dict[str, Any],
    may_restore: MayRestore = _restore_all,
) -> ImportReport:
    """Validate ``source`` (JSON text or a decoded document) and add what is new, in one
    transaction committed at the end. A night or game of the file that was deleted here comes
    back only when ``may_restore`` says so (the web import: the host, or the game's own
    scorekeeper; an export anyone downloaded must not undo a scorekeeper's deletion).

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
        _Writer(session, report, may_restore).write(doc)
        session.commit()
    except (SQLAlchemyError, LookupError, TypeError, ValueError) as exc:
        # Validation should leave nothing for the database to refuse; if it still does, the
        # file is reported as refused and nothing stays half-written.
        session.rollback()
        report.added.clear()
        report.kept.clear()
        report.restored.clear()
        report.not_restored.clear()
        report.new_games.clear()
        orig = getattr(exc, "orig", None)  # the driver's own message, for a database error
        detail = str(orig) if orig else str(exc)
        report.problems.append(
            Problem("$", _("The database refused the import: %(detail)s", detail=detail))
        )
    return report


class _Writer:
    """Adds a validated document's new items to the session (no commit)."""

    def __init__(self, session: Session, report: ImportReport, may_restore: MayRestore) -> None:
        self.session = session
        self.report = report
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
        when the importer may undo its deletion (importing a backup is how a deletion is
        undone after the restore window)."""
        if row.deleted_at is None:
            self.report.kept[kind] += 1
        elif self.may_restore(row):
            row.deleted_at = None
            self.report.restored[kind] += 1
        else:
            self.report.not_restored[kind] += 1

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
            self.report.kept["rulings"] += 1
            return
        self.session.execute(insert(Ruling), [_ruling_row(None, data)])
        self.report.added["rulings"] += 1


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
