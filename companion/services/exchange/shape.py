"""The declared shape of the ``chickenfoot-companion/v1`` document: ``schema/v1.json``.

The JSON Schema (draft 2020-12) is the one home of the format's fields, types and fixed bounds;
:func:`shape_problems` checks a document against it with :mod:`jsonschema` and words each failure
as the import report does, with its JSON path (``$.nights[0].games[1].rounds[2].hands[0]``).
What a schema cannot say (references, uniqueness, bounds that depend on the set, tiles and house
rules) is :mod:`companion.services.exchange.validate`'s. The format's own words live here too:
its tag (:data:`FORMAT`) and the ``{"$seat": position}`` marker of audit snapshots. The schema
is served at ``/history/schema/v1.json`` (:mod:`companion.history.export_views`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from importlib.resources import files
from typing import Any

import jsonschema_rs
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from jsonschema import Draft202012Validator, FormatChecker, ValidationError

from ...errors import Problem as RefusalProblem

#: the file of the schema, inside this package
SCHEMA_FILE = "v1.json"
#: the format tag of version 1 of the document
FORMAT = "chickenfoot-companion/v1"
#: keys of audit snapshots whose value is a seat's database id (written as {"$seat": position})
SEAT_ID_KEYS = frozenset({"seat_id", "starter_seat_id"})
#: the order in which failures at one path are told: only the first is shown (a value of the
#: wrong type is "must be text", not also "too long")
_FIRST: tuple[str, ...] = ("type", "const", "enum", "anyOf", "format", "minLength", "maxLength")
_FIRST += ("minimum", "maximum", "pattern")
#: the report's wording of a value of the wrong type, per JSON Schema type
_TYPE_WORDS = {
    "object": _l("must be an object."),
    "array": _l("must be a list."),
    "string": _l("must be text."),
    "integer": _l("must be a whole number."),
    "boolean": _l("must be true or false."),
}


@dataclass(frozen=True, init=False)
class Problem(RefusalProblem):
    """Something wrong in a document: the app's one refusal shape
    (:class:`companion.errors.Problem`) whose field is where, a JSON path from ``$``, and whose
    words are told after it in the import report."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message, path)

    @property
    def path(self) -> str:
        """Where in the document, a JSON path from ``$`` (``$.nights[0].place``)."""
        return self.field or "$"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


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


def seat_marker(value: Any) -> tuple[bool, Any]:
    """(True, position) for ``{"$seat": position}`` (how the document names a seat inside an
    audit snapshot, see :data:`SEAT_ID_KEYS`), else (False, None)."""
    if isinstance(value, dict) and len(value) == 1 and "$seat" in value:
        return True, value["$seat"]
    return False, None


def to_date(value: Any) -> date | None:
    """ISO date text (``2026-11-28``) -> date; None if invalid."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _is_date_time(value: Any) -> bool:
    """The ``date-time`` format: text the app reads as a time (anything else is not text,
    which the schema's ``type`` refuses)."""
    return not isinstance(value, str) or to_datetime(value) is not None


def _is_date(value: Any) -> bool:
    """The ``date`` format: text the app reads as a date."""
    return not isinstance(value, str) or to_date(value) is not None


def _formats() -> FormatChecker:
    """Dates and times as the app reads them (Python's ISO 8601; an offset is optional)."""
    checker = FormatChecker(formats=())
    checker.checks("date-time")(_is_date_time)
    checker.checks("date")(_is_date)
    return checker


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of version 1 of the document (parsed once)."""
    loaded: dict[str, Any] = json.loads(
        files(__package__).joinpath("schema", SCHEMA_FILE).read_text("utf-8")
    )
    return loaded


@cache
def validator() -> Draft202012Validator:
    """A validator of :func:`schema` that asserts the date and time formats."""
    Draft202012Validator.check_schema(schema())
    return Draft202012Validator(schema(), format_checker=_formats())


@cache
def quick_validator() -> jsonschema_rs.Draft202012Validator:
    """The same schema and formats compiled by jsonschema-rs: only a yes or no, in a small
    fraction of the time :func:`validator` takes to walk a large export (2,000 games: most of a
    re-import's time). A document it refuses is walked again by :func:`validator` for the
    worded problems, so the words come from one place."""
    return jsonschema_rs.Draft202012Validator(
        schema(), formats={"date-time": _is_date_time, "date": _is_date}, validate_formats=True
    )


def _quickly_valid(doc: Any) -> bool:
    """True when jsonschema-rs finds ``doc`` of the declared shape; False when it does not or
    cannot take the document in (a lone surrogate in a text cannot cross into Rust): then the
    worded walk decides."""
    try:
        return bool(quick_validator().is_valid(doc))
    except (UnicodeError, ValueError, OverflowError):
        return False


def json_path(parts: Iterable[str | int], base: str = "$") -> str:
    """``["nights", 0, "place"]`` -> ``$.nights[0].place``."""
    return base + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def shape_problems(doc: Any) -> list[Problem]:
    """Every place where ``doc`` does not have the declared shape, one problem per place, in
    the report's words."""
    if _quickly_valid(doc):
        return []
    found: dict[str, Problem] = {}
    ranked: dict[str, int] = {}
    for error in validator().iter_errors(doc):
        for problem in _problems(error):
            rank = _rank(error.validator)
            if problem.path not in found or rank < ranked[problem.path]:
                found[problem.path], ranked[problem.path] = problem, rank
    return list(found.values())


def _rank(keyword: Any) -> int:
    return _FIRST.index(keyword) if keyword in _FIRST else len(_FIRST)


def _problems(error: ValidationError) -> Iterator[Problem]:
    path = json_path(error.absolute_path)
    value: Any = error.instance
    keyword = str(error.validator)
    rule: dict[str, Any] = dict(error.schema) if isinstance(error.schema, Mapping) else {}
    if keyword == "required":
        for name in rule["required"]:
            if name not in value:
                yield Problem(f"{path}.{name}", _("is missing."))
    elif keyword == "additionalProperties":
        for name in value:
            if name not in rule.get("properties", {}):
                yield Problem(f"{path}.{name}", _("is not a field of this format."))
    else:
        yield Problem(path, _words(keyword, rule, value))


def _words(keyword: str, rule: dict[str, Any], value: Any) -> str:
    """One failed keyword in the import report's words, in the player's language (the schema's
    ``x-messages`` first: their English is the msgid, extracted by
    :func:`companion.extract.schema_messages`)."""
    custom = rule.get("x-messages", {}).get(keyword)
    if custom:
        return _(str(custom), value=repr(value))
    if keyword == "type":
        kinds = rule["type"] if isinstance(rule["type"], list) else [rule["type"]]
        return str(
            next((_TYPE_WORDS[k] for k in kinds if k in _TYPE_WORDS), _("has the wrong type."))
        )
    if keyword in ("minimum", "maximum"):
        return _(
            "must be between %(lo)s and %(hi)s, not %(value)s.",
            lo=rule["minimum"],
            hi=rule["maximum"],
            value=value,
        )
    if keyword in ("minLength", "maxLength"):
        return _(
            "must have %(min_len)s to %(max_len)s characters.",
            min_len=rule.get("minLength", 0),
            max_len=rule["maxLength"],
        )
    if keyword in ("enum", "const"):
        choices = rule["enum"] if keyword == "enum" else [rule["const"]]
        shown = ", ".join("null" if c is None else str(c) for c in choices)
        return _("must be one of %(shown)s, not %(value)s.", shown=shown, value=repr(value))
    return _("does not have the shape this format needs.")
