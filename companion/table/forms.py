"""The table blueprint's forms: what a player's phone and the scorekeeper's table controls post,
read by Flask-WTF (each carries the CSRF token; a form binds the post itself).

The pages write these forms' HTML by hand (templates/table/), with the same field names. The
buttons' fields are read leniently (a seat id that is not a seat says so in the view); a hand
post that cannot be read whole (a total too long to be points, more tiles than any set, no
readable round) is refused with the player's words, never cut short into another hand.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectMultipleField, StringField
from wtforms.validators import Length, ValidationError

from ..engine.limits import MAX_TILES
from ..text import ascii_whole_number

#: the longest tile text a phone sends (``18-18``, with room for spaces around it)
TILE_TEXT_MAX = 20
#: the longest typed total read (a hand's points have at most 4 digits; spaces around them)
TOTAL_TEXT_MAX = 20


def round_double(text: Any) -> int | None:
    """The centre double's number of a round as a form or a link sends it (``"6"`` for the
    round with 6-6), or None for anything else."""
    value = str(text or "").strip()
    # ASCII digits only: "²".isdigit() is true but int("²") raises, and "６" would read as 6
    return int(value) if ascii_whole_number(value) and len(value) <= 2 else None


def unknown_round() -> str:
    """What a hand post whose round cannot be read is told (a forged or broken page)."""
    return _("This form does not say which round it is for; reload the page.")


def _names_a_round(form: Any, field: Any) -> None:
    if round_double(field.data) is None:
        raise ValidationError(unknown_round())


def _tiles_of_a_set(form: Any, field: Any) -> None:
    """No hand holds more tiles than the largest set, nor a tile's text this long."""
    tiles = field.data or []
    if len(tiles) > MAX_TILES or any(len(str(t)) > TILE_TEXT_MAX for t in tiles):
        raise ValidationError(str(_l("These are not tiles of the set: tap the tiles again.")))


class HandPostForm(FlaskForm):
    """A player's own hand for the coming round (templates/table/hand.html): the typed total,
    the tapped tiles or "I went out", the round's double and the revision the phone last saw;
    ``force`` posts over another phone's change after both were shown; ``open_picker`` is
    "Tap the tiles" without JavaScript (the page again with the picker open, nothing posted);
    ``to_photo`` is "Count my pips from a photo" (what was typed kept, the photo page opened);
    ``saved_only`` asks what became of typing for a round saved meanwhile (static/js/hand.js):
    the saved round beside it, never a post."""

    total = StringField(
        validators=[
            Length(
                max=TOTAL_TEXT_MAX,
                message=_l("Type the points as a whole number (digits only)."),
            )
        ]
    )
    tiles = SelectMultipleField(validate_choice=False, validators=[_tiles_of_a_set])
    went_out = BooleanField()
    double = StringField(validators=[_names_a_round])
    seen = StringField(default="0")
    force = BooleanField()
    open_picker = StringField()
    to_photo = StringField()
    saved_only = StringField()

    def opens_picker(self) -> bool:
        """True when "Tap the tiles" sent the form (the field is there, whatever its value)."""
        return bool(self.open_picker.raw_data)

    def opens_photo(self) -> bool:
        """True when "Count my pips from a photo" sent the form."""
        return bool(self.to_photo.raw_data)

    def asks_saved(self) -> bool:
        """True when the page only asks what the saved round holds (``saved_only``)."""
        return bool(self.saved_only.raw_data)

    def typed(self) -> dict[str, Any]:
        """What the player typed, as the hand post and the hand page take it."""
        return {
            "total": self.total.data or "",
            "tiles": [str(t) for t in self.tiles.data or []],
            "went_out": bool(self.went_out.data),
        }

    def round(self) -> int:
        """The round's double, once the form validated (its validator read it)."""
        double = round_double(self.double.data)
        assert double is not None, "read before the form validated"
        return double

    def first_error(self) -> str:
        """The first message of a field that did not read (the form's own order)."""
        return next(str(e) for field in self for e in field.errors)


class SeatForm(FlaskForm):
    """Tapping a name on the join page: the seat's id (checked against the game's seats)."""

    seat = StringField()


class SwitchForm(FlaskForm):
    """A two-state button of the scorekeeper (lock the seats, auto-save): ``1`` is on."""

    locked = StringField()
    on = StringField()


class AskForm(FlaskForm):
    """ "Make this phone the scorekeeper"; ``now`` is "Take over now" (the host: with the
    passcode, or anyone when none is set)."""

    now = StringField()


class HandoverForm(FlaskForm):
    """The scorekeeper's answer to a phone asking to keep score: the request's id and
    ``choice`` (hand over, ``add`` as a second scorekeeper, ``refuse``)."""

    request = StringField()
    choice = StringField(default="")
