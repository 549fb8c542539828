"""The checker's forms, read by WTForms (one way to read a form, as in the other blueprints).

:class:`QuestionForm` reads a posted question, each tab's fields with their validators (the
tiles of a hand, counts, round scores) and :class:`PlayerEntries` for each player's.

:class:`TableArgs` reads the table of the URL or the posted form (``?preset=&set=&players=
&centre=``). It is a plain ``wtforms.Form`` (no CSRF token): the same fields arrive by GET links
and inside the question forms, whose token Flask-WTF's CSRF protection checks for the whole post.
A value that cannot be read leaves its field empty; then
:func:`companion.checker.context.table_from_args` uses the default and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    Form,
    FormField,
    IntegerField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import AnyOf, InputRequired, NumberRange, Optional, StopValidation

from ..engine.tiles import TILE_SEPARATOR, TILE_TEXT
from ..text import ascii_whole_number, shortened
from ..web.form_fields import EntryList, EntryNames

#: question tab -> (QUESTIONS.md category, title)
QUESTIONS: dict[str, tuple[str, Any]] = {
    "move": ("placement", _l("Can this tile go here?")),
    "draw": ("draw", _l("What must I do?")),
    "end": ("round_end", _l("Is the round over?")),
    "score": ("scoring", _l("What does this hand score?")),
    "tie": ("tiebreak", _l("Who wins this tie?")),
    "edge": ("edge", _l("Special cases")),
}

_TILE_TOKEN = re.compile(TILE_TEXT)
_SEPARATOR_SPACES = re.compile(rf"\s*({TILE_SEPARATOR})\s*")


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class TableArgs(Form):
    """The table a question is asked under: a preset's name, the set (double-N), the number of
    players and the centre double (its number of pips)."""

    game = StringField()
    preset = StringField(filters=[lambda value: (value or "").strip() or "standard"])
    set = IntegerField(validators=[Optional()])
    players = IntegerField(validators=[Optional()])
    centre = IntegerField(validators=[Optional()])

    @classmethod
    def read(cls, args: Mapping[str, Any]) -> TableArgs:
        """The fields from ``args`` (a request's args or form, or a plain mapping)."""
        data = args if isinstance(args, MultiDict) else MultiDict(dict(args))
        form = cls(formdata=data)
        form.validate()
        return form

    def number(self, name: str) -> int | None:
        """The field's whole number, or None when it is missing or unreadable."""
        value = self[name].data
        return value if isinstance(value, int) and not self[name].errors else None


class PositionArgs(Form):
    """The position and what is open on it, from the URL or a posted form: ``pos`` (the text
    notation or a pasted layout, as typed), ``q`` (a question tab), ``sel`` (the open end being
    filled), ``ruling`` (a saved ruling's id, checked where it is looked up), and the move
    being asked about (``tile`` on ``on``). No CSRF field: see :class:`TableArgs`."""

    pos = StringField(default="")
    q = StringField(default="")
    sel = StringField(default="")
    ruling = StringField()
    tile = StringField(default="")
    on = StringField(default="")

    @classmethod
    def read(cls, args: MultiDict) -> PositionArgs:
        return cls(formdata=args)

    def tab(self) -> str:
        """The question tab, or "" for none or one that does not exist."""
        return self.q.data if self.q.data in QUESTIONS else ""


class WholeNumberField(StringField):
    """A count typed in a number box: ``data`` is the whole number, or None when left blank.
    Anything else is refused in the player's words (not WTForms' "Not a valid integer")."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.raw_text = str(valuelist[0] if valuelist else "").strip()
        self.data: int | None = None

    def pre_validate(self, form: Any) -> None:
        text = getattr(self, "raw_text", "")
        if not text:
            return
        # the digits 0-9 only, as in the points boxes ("３" and "٢" are digits to int())
        number = int(text) if ascii_whole_number(text) else None
        if number is None:
            raise StopValidation(_('"%(raw)s" is not a whole number.', raw=text))
        self.data = number


class HandTiles:
    """Validator of a hand's tile picker: the tiles ticked plus those typed in the text field
    ``typed`` beside it (``"9-5 5-4, 0-0"``), each once (4-3 and 3-4 are one tile), left on
    the picker as ``field.tiles``. Whether each tile is in the set is the engine's check."""

    def __init__(self, typed: str) -> None:
        self.typed = typed

    def __call__(self, form: Any, field: Any) -> None:
        picked = [str(t) for t in field.data or []]
        typed = typed_tiles(str(form[self.typed].data or ""))
        field.tiles = []
        seen: set[tuple[str, ...]] = set()
        for text in [*picked, *typed]:
            key = tuple(sorted(text.split("-")))
            if key in seen:
                raise StopValidation(_("%(tile)s is in the hand twice.", tile=text))
            seen.add(key)
            field.tiles.append(text)


def typed_tiles(text: str) -> list[str]:
    """The tiles typed in ``text`` (``"9-5 5-4, 0-0"``; ``-``, ``|``, ``:`` or ``/`` between
    the numbers), each written ``a-b``.

    Raises StopValidation naming the first word that is not a tile: a typo must refuse the
    question, never be dropped (dropping it would judge another hand).
    """
    joined = _SEPARATOR_SPACES.sub(r"\1", text.strip())
    out = []
    for token in (t for t in re.split(r"[\s,;]+", joined) if t):
        match = _TILE_TOKEN.fullmatch(token)
        if match is None:
            raise StopValidation(
                _(
                    "Could not read '%(token)s' as a tile; write tiles like 5-0.",
                    token=shortened(token),  # a pasted screenful is not quoted back whole
                )
            )
        out.append(f"{match.group(1)}-{match.group(2)}")
    return out


def round_scores(form: Any, field: Any) -> None:
    """Validator of a player's round scores for a tie-break (``"12, 0, 30"``), left on the
    field as ``field.points`` (points, in round order)."""
    parts = [p for p in re.split(r"[\s,;]+", str(field.data or "").strip()) if p]
    if not parts:
        raise StopValidation(_("Enter this player's round scores, e.g. 12, 0, 30."))
    for part in parts:
        if not re.fullmatch(r"-?\d{1,6}", part):
            # a pasted 5,000-digit "score" is not quoted back whole
            raise StopValidation(_('"%(part)s" is not a score in points.', part=shortened(part)))
    field.points = [int(p) for p in parts]


class PlayerEntries(Form):
    """One player's fields on the question forms: their hand (ticked ``hand_<i>`` and typed
    ``hand_<i>_text``, for "is the round over?") and their round scores (``scores_<i>``, for
    "who wins this tie?"), ``<i>`` the player's seat from 0."""

    Meta = EntryNames

    typed = StringField(name="hand_{index}_text")
    picked = SelectMultipleField(
        name="hand_{index}", validate_choice=False, validators=[HandTiles("typed")]
    )
    scores = StringField(name="scores_{index}", validators=[round_scores])


class QuestionForm(FlaskForm):
    """The posted question of the checker's tabs (``q``), read and checked by WTForms: each
    tab reads only its own fields (:mod:`companion.checker.asking` builds the question).

    No CSRF field of its own: Flask-WTF's CSRFProtect checks the token of every post. The table
    it is asked under is read by :class:`TableArgs` from the same post.
    """

    class Meta:
        csrf = False

    q = StringField(validators=[AnyOf(list(QUESTIONS), message=_l("Choose a question."))])
    pos = StringField()
    tile = StringField(validators=[InputRequired(_l("Tap the tile to play."))])
    on = StringField(validators=[InputRequired(_l("Tap the end to play it on."))])
    hand_text = StringField()
    hand = SelectMultipleField(validate_choice=False, validators=[HandTiles("hand_text")])
    yard_count = WholeNumberField()
    yard_left = WholeNumberField(
        validators=[
            Optional(),
            NumberRange(min=1, message=_l("Enter how many tiles are in the chicken yard.")),
        ]
    )
    spokes = WholeNumberField()
    tile_drawn = StringField(filters=[_strip])
    # "1" when ticked; any value but none counts, as a checkbox's does
    went_out = BooleanField(false_values=("",))
    last_double = BooleanField(false_values=("",))
    announced = BooleanField(false_values=("",))
    next_played = BooleanField(false_values=("",))
    round_end = StringField()
    situation = StringField()
    who = StringField()
    to_move = StringField()
    edge = StringField()
    players = EntryList(FormField(PlayerEntries))

    @classmethod
    def read(cls, formdata: MultiDict, players: int) -> QuestionForm:
        """The question posted in ``formdata`` at a table of ``players`` players."""
        return cls(formdata=formdata, players=[{"index": i} for i in range(players)])
