"""Row ids taken from the outside world (URLs, query strings, form fields, import files).

Every table's id column is a 32-bit signed ``INTEGER`` on PostgreSQL (and SQLite stores any
id this app makes in far less), so the one bound for an id anyone may send is :data:`ID_MAX`.
A larger number cannot name a row: it is "not found", never a database overflow error.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import IntegerConverter

#: the largest row id (PostgreSQL ``INTEGER``, 2**31 - 1); the one home of this bound
ID_MAX = 2**31 - 1
#: the most digits an id can have; longer text is refused before it is converted
ID_DIGITS = len(str(ID_MAX))


def parse_id(raw: Any) -> int | None:
    """``raw`` (text or int) as a row id from 1 to :data:`ID_MAX`, else None.

    Only ASCII digits count (no sign, no spaces, no other scripts' digits), and text longer
    than :data:`ID_DIGITS` is refused before conversion, so a 5,000-digit "id" costs nothing.
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if 0 < raw <= ID_MAX else None
    if not isinstance(raw, str) or not (raw.isascii() and raw.isdigit()):
        return None
    if len(raw) > ID_DIGITS:
        return None
    value = int(raw)
    return value if 0 < value <= ID_MAX else None


def is_id(value: Any) -> bool:
    """True when ``value`` is an int that can be a row id (1..:data:`ID_MAX`)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= ID_MAX


class IdConverter(IntegerConverter):
    """``<int:...>`` URL parts: only 1..:data:`ID_MAX` match, so a too-large id is a 404
    rather than a database overflow error (PostgreSQL's ``integer out of range``)."""

    def __init__(self, url_map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min", 0)
        kwargs.setdefault("max", ID_MAX)
        super().__init__(url_map, *args, **kwargs)
