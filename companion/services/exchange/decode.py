"""Decode an export document: bytes or text -> the plain data the other steps read.

The first of the import's three steps (:mod:`.decode` -> :mod:`.validate` -> :mod:`.write`,
run in order by :func:`companion.services.exchange.importing.import_document`). No database and
no request: it takes the file's bytes (or an already decoded document) and returns plain
``dict``/``list``/``str``/``int`` data and the :class:`~.shape.Problem` s that stop it, worded
for the player who uploaded the file ("it ends in the middle", "this looks like a CSV export"),
never the parser's English.

Refused here, before anything walks the data: text that is not UTF-8 or not JSON (a CSV export
is named as such), numbers of more than :data:`MAX_DIGITS` digits or that are not finite
(``NaN``, ``Infinity``), and arrays/objects nested deeper than :data:`MAX_DEPTH`. Free text
(names, places, notes) is then cleaned by the forms' one rule (:func:`clean_free_text`), on a
copy: the caller's document is never changed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from ...models import NAME_MAX
from ...text import clean_name_text, clean_text
from ..game_setup import stored_key
from .shape import Problem

#: deepest nesting of arrays and objects accepted (the format itself needs 8; rulings' questions
#: and audit snapshots a few more): deeper files are refused before anything walks them
MAX_DEPTH = 32
#: most digits of a whole number in the file (every number of the format fits in 64 bits)
MAX_DIGITS = 18


@dataclass
class Decoded:
    """What :func:`decode` made of a file.

    Attributes:
        doc: the plain data (``None`` when there are problems); a copy, cleaned.
        problems: why the file cannot be read at all (then there is no ``doc``).
        cleaned: how many texts lost invisible control characters (:func:`clean_free_text`).
    """

    doc: Any = None
    problems: list[Problem] = field(default_factory=list)
    cleaned: int = 0


def decode(source: str | bytes | dict[str, Any]) -> Decoded:
    """``source`` (the file's bytes, its text, or an already decoded document) as plain data:
    parsed (:func:`parse_document`), copied when the caller handed a document, and its free
    text cleaned (:func:`clean_free_text`)."""
    doc, problems = parse_document(source)
    if problems:
        return Decoded(problems=problems)
    if isinstance(source, dict):
        doc = json.loads(json.dumps(doc))  # cleaned below: never change the caller's document
    return Decoded(doc=doc, cleaned=clean_free_text(doc))


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
        doc, problems = _parse_text(source)
        if problems:
            return None, problems
    if _too_deep(doc):
        message = _(
            "The file nests lists and objects deeper than %(depth)s levels.", depth=MAX_DEPTH
        )
        return None, [Problem("$", message)]
    return doc, []


def _parse_text(source: str | bytes) -> tuple[Any, list[Problem]]:
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
        if not text.strip():  # a 0-byte file: a download that failed, not a CSV export
            return None, [
                Problem("$", _("The file is empty: choose the JSON file the export saved."))
            ]
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
    """Apply the one rule for free text (:func:`companion.text.clean_text`; for player names
    :func:`companion.text.clean_name_text`) to the document's player names, night places and
    notes, in place, as the forms do; a player's name key is
    recomputed from the cleaned name. Returns how many texts changed (a backup taken before the
    rule existed may carry control characters: they are removed, so it can still be restored).
    Values that are not text are left for :func:`validate` to refuse."""
    changed = 0

    def clean(data: Any, name: str, rule: Callable[[str], str]) -> None:
        nonlocal changed
        if isinstance(data, dict) and isinstance(data.get(name), str):
            cleaned = rule(data[name])
            changed += cleaned != data[name]
            data[name] = cleaned

    if not isinstance(doc, dict):
        return 0
    people = doc.get("players")
    if not isinstance(people, list):
        people = []
    for player in people:
        clean(player, "name", clean_name_text)
        if isinstance(player, dict) and isinstance(player.get("name"), str):
            player["name_key"] = stored_key(player["name"])
    _number_same_names(people)
    nights = doc.get("nights")
    for night in nights if isinstance(nights, list) else []:
        clean(night, "place", clean_text)
        clean(night, "notes", lambda notes: clean_text(notes, multiline=True))
    return changed
