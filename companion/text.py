"""The one rule for free text typed by people: player names, a night's place and notes,
game keys, and the same fields in an imported backup.

* Unicode NFC, ends trimmed.
* Whitespace control characters (tab, CR, LF, vertical tab, form feed) are whitespace: a
  one-line field collapses every run of whitespace to one space; a multi-line field keeps
  its line breaks (CR LF and CR become LF) and turns the others into spaces.
* Every other control character (NUL, BEL, ESC, DEL, C1 controls: Unicode category ``Cc``)
  and lone surrogates (``Cs``, which cannot be stored as UTF-8) are *forbidden*: invisible,
  and PostgreSQL cannot store NUL at all.

Forms refuse forbidden characters with a clear message (what was typed stays in the form, so
nothing is lost); the import of a backup removes them (:func:`clean_text`) so that a backup
taken before this rule existed can still be restored. Both use :func:`forbidden_characters`.

Player names have one more rule (:func:`clean_name_text`, used by every way a name enters: new
game seats, rename, import): invisible *format* characters (Unicode category ``Cf``: zero-width
space, word joiner, byte order mark, soft hyphen, bidi marks) are removed, so "Ирина" and
"Ирина" + a zero-width space are one name, not two players who look the same. A zero-width
joiner or non-joiner between two visible characters stays (it shapes emoji such as 👨‍👩‍👧 and
Persian or Indic words); the name's lookup key (:func:`without_format_characters`) drops even
those, so look-alike names still meet.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import Field
from wtforms.validators import ValidationError

_WHITESPACE_CONTROLS = "\t\n\r\x0b\x0c"
_LINE_BREAKS = re.compile(r"\r\n?")
_SPACES = re.compile(r"[ \t\x0b\x0c]+")

FORBIDDEN_MESSAGE = _l(
    "This text has an invisible character that cannot be saved (it often comes with pasted "
    "text); delete it and try again."
)


def _forbidden(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category == "Cs" or (category == "Cc" and ch not in _WHITESPACE_CONTROLS)


#: zero-width non-joiner and joiner: format characters that change how a name looks when they
#: sit between two visible characters
_JOINERS = "\u200c\u200d"


def _format(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf"


def without_format_characters(text: str) -> str:
    """``text`` without any invisible format character (Unicode category ``Cf``, joiners too):
    how two names are compared."""
    return "".join(ch for ch in text if not _format(ch))


def clean_name_text(raw: Any) -> str:
    """A player's name under :func:`clean_text` with invisible format characters removed (all of
    Unicode category ``Cf`` except a zero-width joiner or non-joiner between two visible
    characters); "" when nothing visible is left."""
    text = str(raw or "")
    kept = [
        ch
        for i, ch in enumerate(text)
        if not _format(ch)
        or (
            ch in _JOINERS
            and 0 < i < len(text) - 1
            and _visible(text[i - 1])
            and _visible(text[i + 1])
        )
    ]
    return clean_text("".join(kept))


def _visible(ch: str) -> bool:
    return not (ch.isspace() or _format(ch) or _forbidden(ch))


def stripped(value: Any) -> Any:
    """A form filter: text without surrounding spaces and blank lines (other values as they
    are), so a length limit counts what is kept."""
    return value.strip() if isinstance(value, str) else value


def forbidden_characters(text: str) -> list[str]:
    """The forbidden characters in ``text`` (control characters other than whitespace, and
    lone surrogates), in order of appearance, each once."""
    return list(dict.fromkeys(ch for ch in text if _forbidden(ch)))


def clean_text(raw: Any, *, multiline: bool = False) -> str:
    """``raw`` under the rule above, with forbidden characters removed (None -> "")."""
    text = "".join(ch for ch in str(raw or "") if not _forbidden(ch))
    text = unicodedata.normalize("NFC", text)
    if not multiline:
        return " ".join(text.split())
    lines = _LINE_BREAKS.sub("\n", text).split("\n")
    return "\n".join(_SPACES.sub(" ", line).rstrip() for line in lines).strip()


class PlainText:
    """A WTForms validator: refuse forbidden characters with :data:`FORBIDDEN_MESSAGE`."""

    def __init__(self, message: Any = None) -> None:
        self.message = message or FORBIDDEN_MESSAGE

    def __call__(self, _form: Any, field: Field) -> None:
        if isinstance(field.data, str) and forbidden_characters(field.data):
            raise ValidationError(str(self.message))


#: a whole number as a number box may hold it: the ASCII digits 0-9 only. "３" (full width)
#: and "٢" (Arabic-Indic) are digits to Python's int() but not to the table: one rule for the
#: points boxes and the new-game form's numbers, so both refuse them with the same words.
_ASCII_DIGITS = re.compile(r"[0-9]+")

DIGITS_ONLY_MESSAGE = _l("Type a whole number with the digits 0-9 (digits only).")


def ascii_whole_number(text: str) -> bool:
    """True when ``text`` is made of the ASCII digits 0-9 only (no sign, no spaces)."""
    return _ASCII_DIGITS.fullmatch(text) is not None


#: characters of a typed value that a message quotes back (the rest becomes "…")
ECHO_MAX = 60


def shortened(text: str, limit: int = ECHO_MAX) -> str:
    """``text`` as a message quotes it back: whole up to ``limit`` characters, else its first
    ``limit`` characters and an ellipsis, so that a pasted screenful never buries the reason
    it was refused."""
    return text if len(text) <= limit else text[:limit].rstrip() + "…"
