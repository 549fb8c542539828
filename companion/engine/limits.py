"""How large a question may be: what a game of Chicken Foot allows, and nothing more.

A question describes one table (RULES.md §3.1: 2-12 players), one game of at most N+1 rounds of a
double-N set (§4), and tiles of that set (§2), so no honest question is larger than the largest
set allows. Bounding every input here, before any work, keeps each answer's cost bounded whoever
sends it (the open API, the command line, the checker). Each limit has this one home; the
question parser (:mod:`companion.engine.questions`), the layout replay, the hand parser and the
API's OpenAPI document all read them from here.

Two kinds of check:

* :func:`check_shape` walks the raw question once (iteratively, so a deep nesting cannot exhaust
  the stack): nesting depth, the length of every list, object and text, the size of every
  number, and text that is not Unicode (a lone surrogate). It runs before anything else.
* :func:`check_count` is the per-field bound the parser applies once it knows the question's
  set (a hand no longer than the set, no more rounds than the set has doubles, ...).

Both refuse with :class:`EngineError` code ``ErrorCode.TOO_LARGE`` (the API answers 413) or
``BAD_TEXT`` (422), naming where.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import EngineError, ErrorCode
from .rules import PLAYERS_MAX, PLAYERS_MIN
from .tiles import MAX_TILE_TEXT, SUPPORTED_SETS, DominoSet

_LARGEST_SET = DominoSet(max(SUPPORTED_SETS))
#: Players at one table (RULES.md §3.1): bounds every player -> ... object and list of names.
MAX_PLAYERS = PLAYERS_MAX
#: Distinct player counts a table can have (2..12): bounds ``players_list``.
MAX_PLAYER_COUNTS = PLAYERS_MAX - PLAYERS_MIN + 1
#: Rounds of the longest game, double-18 (§4): 19. A question's own set may allow fewer.
MAX_ROUNDS = _LARGEST_SET.rounds
#: Tiles of the largest set, double-18 (§2): 190. No list in a question can honestly be longer.
MAX_TILES = _LARGEST_SET.tile_count
#: Characters of any text in a question: a name, a case or tile id, a tile, a preset or switch
#: value. 60 is also the longest player name the score keeper stores (models.NAME_MAX).
MAX_TEXT = 60
#: Characters of text the engine never reads: an input field outside :data:`INPUT_FIELDS` (a
#: ``note`` beside the question, say). Generous, so an honest remark is never refused; with
#: :data:`MAX_VALUES` it still bounds what a question may hold.
MAX_FREE_TEXT = 2_000
#: The input fields the engine reads (QUESTIONS.md, every category). Text under them is a name,
#: id, tile or switch value (:data:`MAX_TEXT`); any other input field is only carried along.
INPUT_FIELDS = frozenset(
    {
        "announced", "center_spokes_required", "draws", "event", "found_by", "hand",
        "hand_size_chosen", "hands", "holders", "kind", "last_tile_was_double", "layout",
        "move", "next_player_has_played", "player", "players", "players_list",
        "requested_center_spokes", "round", "round1_starter", "round_end", "round_scores",
        "round_start_double", "rounds_played", "search_order", "seats_clockwise", "set",
        "start_double", "tile_drawn", "tiles_left", "to_move", "turn", "went_out", "yard_count",
    }
)  # fmt: skip
#: Input fields whose entries are rounds, and the nesting at which those entries are listed
#: (``input.rounds_played`` is 2 deep, ``input.round_scores.<player>`` 3): at most
#: :data:`MAX_ROUNDS` of them, said in rounds rather than tiles.
ROUND_FIELDS = {"rounds_played": 2, "holders": 2, "round_scores": 3}
#: Nesting of a question: ``input.layout.tiles[i].tile`` is 5 levels deep; 8 leaves room.
MAX_DEPTH = 8
#: The largest number anywhere in a question: far above any score or count of the game (a
#: whole double-18 set left in hand is under 4,000 points), far below what is slow to print.
MAX_NUMBER = 1_000_000
#: Values (numbers, texts, lists, objects) in one question. The largest honest question lays
#: every tile of a double-18 set once, about 4 values a tile (a layout entry, its id, parent and
#: tile), plus scores of 12 players x 19 rounds: under 1,500. Bounds ignored fields too.
MAX_VALUES = 4_000
#: Digits the JSON reader turns into a number; longer digit strings become :class:`HugeNumber`.
_MAX_DIGITS = len(str(MAX_NUMBER)) + 1

assert MAX_TILE_TEXT <= MAX_TEXT  # a tile that parses is never refused as too long


@dataclass(frozen=True, slots=True)
class HugeNumber:
    """A JSON integer with more digits than any question needs, kept as its digit count.

    Python refuses to convert integers of more than 4,300 digits, which would make the whole
    file unreadable; :func:`read_json` keeps such a number as this marker instead, so only the
    question holding it is refused (by :func:`check_shape`).
    """

    digits: int

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"


@dataclass(frozen=True, slots=True)
class NotANumber:
    """``NaN``, ``Infinity`` or ``-Infinity`` in JSON text, kept as written.

    JSON has no such numbers, but Python's reader accepts them; :func:`read_json` keeps each as
    this marker so that :func:`check_shape` refuses it where it stands (``BAD_VALUE``), and the
    command line and the API answer such a question alike: that case refused, the others of
    its file or batch answered.
    """

    text: str

    def __repr__(self) -> str:
        return self.text


def _parse_int(text: str) -> int | HugeNumber:
    digits = len(text.lstrip("-"))
    return HugeNumber(digits) if digits > _MAX_DIGITS else int(text)


def read_json(text: str | bytes, **options: Any) -> Any:
    """``json.loads`` that never fails on a long integer (see :class:`HugeNumber`): text that
    Python refuses to convert for its length is parsed again, keeping such numbers as markers.

    ``NaN`` and ``Infinity`` are read as :class:`NotANumber` markers. Raises
    ``json.JSONDecodeError``/``ValueError`` for text that is not JSON and ``RecursionError`` for
    nesting deeper than the parser can follow; ``options`` go to ``json.loads``.

    >>> read_json('{"yard_count": NaN}')
    {'yard_count': NaN}
    >>> read_json('[1' + '0' * 5000 + ']')
    [a 5001-digit number]
    """
    options.setdefault("parse_constant", NotANumber)
    try:
        return json.loads(text, **options)  # the fast path: no Python call per number
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError) or "digits" not in str(exc):
            raise
    return json.loads(text, parse_int=_parse_int, **options)


def too_large(message: str, where: str) -> EngineError:
    """The error for an input over one of these bounds."""
    return EngineError(ErrorCode.TOO_LARGE, message, where)


def check_count(items: Any, most: int, where: str, what: str) -> None:
    """Refuse a list or object with more than ``most`` entries, before any of them is read.

    ``what`` says what the entries are and why the bound holds, e.g.
    ``"tiles: a double-9 set has 55"``.
    """
    if isinstance(items, list | tuple | Mapping) and len(items) > most:
        raise too_large(f"This gives {len(items)} {what}; at most {most} can be.", where)


def label(key: Any) -> str:
    """``key`` as it may appear in an error's ``where`` (always printable UTF-8)."""
    return str(key).encode("utf-8", "backslashreplace").decode("utf-8")


def check_text(value: str, where: str, most: int = MAX_TEXT) -> None:
    """Refuse text longer than ``most`` characters or holding a lone surrogate (not Unicode).

    >>> check_text("Ann", "input.player")
    >>> check_text("N" * 61, "input.player")
    Traceback (most recent call last):
    ...
    companion.engine.errors.EngineError: Text here is at most 60 characters, not 61.
    >>> check_text("a remark of 69 characters" + "." * 44, "input.note", MAX_FREE_TEXT)
    """
    if len(value) > most:
        raise too_large(f"Text here is at most {most} characters, not {len(value)}.", where or "id")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise EngineError(
            ErrorCode.BAD_TEXT,
            "%(value)s is not valid text (it holds a lone surrogate).",
            where,
            # quoted by hand: repr() would write the backslash of "\\ud800" twice
            params={"value": f"'{label(value)}'"},
        ) from None


QUESTION_KEYS = ("id", "category", "ruleset", "input")


def check_shape(question: Mapping[str, Any]) -> None:
    """Bound the parts of a question the engine reads (``id``, ``category``, ``ruleset``,
    ``input``) before any work: at most :data:`MAX_DEPTH` deep, no list or object over
    :data:`MAX_TILES` entries (:data:`MAX_ROUNDS` where the entries are rounds), no text over
    :data:`MAX_TEXT` characters or with a lone surrogate, no number beyond :data:`MAX_NUMBER`.
    Input fields the engine does not read (outside :data:`INPUT_FIELDS`) are held only to
    :data:`MAX_FREE_TEXT` characters a text; other fields of the question (``expected``,
    ``notes``) are not read, so not bounded. Costs one step per value, at most
    :data:`MAX_VALUES`; raises EngineError.

    >>> check_shape({"category": "scoring", "input": {"hand": ["6-4"], "note": "x" * 69}})
    >>> check_shape({"category": "scoring", "input": {"round_scores": {"Ann": [0] * 200}}})
    Traceback (most recent call last):
    ...
    companion.engine.errors.EngineError: This gives 200 rounds: the longest game (double-18) has 19; at most 19 can be.
    """  # noqa: E501
    # (value, where, depth, the input field it is under or "" above the input fields)
    stack: list[tuple[Any, str, int, str]] = [
        (question[k], k, 1, "") for k in reversed(QUESTION_KEYS) if k in question
    ]
    seen = 0
    while stack:
        value, where, depth, field = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise too_large(f"A question holds at most {MAX_VALUES:,} values.", where)
        text_most = MAX_TEXT if field == "" or field in INPUT_FIELDS else MAX_FREE_TEXT
        if isinstance(value, str):
            check_text(value, where, text_most)
        elif isinstance(value, NotANumber):
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "%(value)s is not a number: JSON has no NaN or Infinity.",
                where,
                params={"value": value.text},
            )
        elif isinstance(value, bool) or value is None or isinstance(value, float):
            continue  # a float where a whole number belongs is refused where it is read
        elif isinstance(value, int | HugeNumber):
            if isinstance(value, HugeNumber) or abs(value) > MAX_NUMBER:
                raise too_large(
                    f"{value!r} is far larger than any number of the game "
                    f"(at most {MAX_NUMBER:,}).",
                    where,
                )
        elif isinstance(value, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                raise too_large(f"A question is nested at most {MAX_DEPTH} levels deep.", where)
            if ROUND_FIELDS.get(field) == depth:
                check_count(value, MAX_ROUNDS, where, _ROUNDS)
            elif field == "" or field in INPUT_FIELDS:
                check_count(value, MAX_TILES, where, _ENTRIES)
            stack.extend(reversed(_children(value, where, depth, field, text_most)))


_ROUNDS = f"rounds: the longest game (double-{max(SUPPORTED_SETS)}) has {MAX_ROUNDS}"
_ENTRIES = f"entries: no list in a question is longer than the largest set ({MAX_TILES} tiles)"


def _children(
    value: Mapping[str, Any] | list[Any] | tuple[Any, ...],
    where: str,
    depth: int,
    field: str,
    text_most: int,
) -> list[tuple[Any, str, int, str]]:
    """The entries of a list or object for :func:`check_shape`'s walk; an object's keys are
    checked as text here (a key of ``input`` names the field its entries are under)."""
    if not isinstance(value, Mapping):
        return [(item, f"{where}[{i}]", depth + 1, field) for i, item in enumerate(value)]
    children = []
    for key, item in value.items():
        if not isinstance(key, str):
            raise EngineError(ErrorCode.BAD_VALUE, "Object keys must be text.", where)
        under = key if where == "input" else field
        check_text(key, where, MAX_TEXT if where == "input" else text_most)
        children.append((item, f"{where}.{key}", depth + 1, under))
    return children


def count_values(question: Any, most: int) -> int:
    """How many values :func:`check_shape` would walk in ``question`` (its ``id``, ``category``,
    ``ruleset`` and ``input``), counting no further than ``most + 1``: a measure of the work
    answering it takes, used to bound a batch of questions before any is answered."""
    if not isinstance(question, Mapping):
        return 1
    stack = [question[k] for k in QUESTION_KEYS if k in question]
    seen = 0
    while stack and seen <= most:
        value = stack.pop()
        seen += 1
        if isinstance(value, Mapping):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return seen
