"""Forms for playing a game: scoring a round (per seat: a typed total, tapped tiles, "went out"),
and the small one-button forms (burn a double, undo, delete, restore, rematch).

Every form carries the CSRF token (Flask-WTF) and the game's version, so a double tap or a
second phone cannot save the same change twice. The round form's per-seat fields are named
``total_<seat id>``, ``tiles_<seat id>`` and ``out_<seat id>``
(:mod:`companion.services.round_check` keys its messages by them).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, HiddenField, SelectField, SelectMultipleField, StringField
from wtforms.validators import Optional

from ..models import Game, Round
from ..services.round_check import (
    EntryErrors,
    HandEntry,
    RoundEntry,
    ScoredRound,
    check_round,
    out_field,
    tiles_field,
    total_field,
)
from ..stale_forms import stale_form
from ..vocab import RoundOutcome

NOT_RECORDED = ""


class VersionForm(FlaskForm):
    """A one-button form: CSRF plus the game version it was shown for."""

    version = HiddenField()


class BurnForm(VersionForm):
    """ "Nobody holds this double" when the house rule burns it: the double in question."""

    double = HiddenField()


class RoundForm(FlaskForm):
    """The fields every round form has; :func:`round_form` adds the per-seat ones.

    :meth:`validate_round` is the form's whole validation: WTForms' own (CSRF, fields), then
    the engine's check of the round, so a view reads one result and one error shape.
    """

    version = HiddenField()
    double = HiddenField()
    blocked = BooleanField(_l("Nobody went out: the round was blocked"))
    out_on_double = BooleanField(_l("The last tile played was a double"))
    starter = SelectField(_l("Who started this round?"), validate_choice=False, default="")

    def validate_round(self, game: Game, double: int) -> tuple[ScoredRound | None, EntryErrors]:
        """Validate the form, then check and score the round with ``double`` with the engine
        (:func:`companion.services.round_check.check_round`, RULES.md §6-§8).

        Returns the scored round, or None and the messages: each one is also on its field
        (``form[name].errors``), those about the round as a whole only in the result.
        """
        errors = EntryErrors()
        if not self.validate():
            if not stale_form():  # a stale form's notice already says what happened
                errors.add(None, _("The form expired or was incomplete; check it and save again."))
            return None, errors
        scored, errors = check_round(game, entry_from(self, game, double))
        self.add_errors(errors)
        return scored, errors

    def add_errors(self, errors: EntryErrors) -> None:
        """Show ``errors``' field messages on their fields, after those already there."""
        for name, messages in errors.fields.items():
            self[name].errors = [*self[name].errors, *messages]


def round_form(game: Game, formdata: MultiDict | None = None, **data: Any) -> RoundForm:
    """A round form for ``game``'s seats, bound to ``formdata`` (a POST) or filled from ``data``.

    The tile lists are not checked against choices here: :meth:`RoundForm.validate_round` parses
    them with the engine and says precisely what is wrong with each.
    """

    class _Form(RoundForm):
        pass

    for seat in game.seats:
        setattr(
            _Form,
            total_field(seat),
            StringField(
                seat.player.name,
                validators=[Optional()],
                filters=[lambda v: v.strip() if isinstance(v, str) else v],
                render_kw={
                    # the phone's number pad (inputmode is enough since iOS 12.2; the
                    # form is sent with every save, so no redundant pattern="[0-9]*")
                    "inputmode": "numeric",
                    "maxlength": "7",
                },
            ),
        )
        setattr(_Form, tiles_field(seat), SelectMultipleField(validate_choice=False))
        setattr(_Form, out_field(seat), BooleanField(_l("Went out")))
        # the revision of the hand posted from the player's phone that filled this seat
        setattr(_Form, f"seen_{seat.id}", HiddenField(default=""))
    form = _Form(formdata=formdata, **data)
    form.starter.choices = [(NOT_RECORDED, _l("Not recorded"))] + [
        (str(s.id), s.player.name) for s in game.seats
    ]
    return form


def entry_from(form: RoundForm, game: Game, double: int) -> RoundEntry:
    """The scorekeeper's entries as a :class:`RoundEntry` for the round with ``double``."""
    hands = []
    for seat in game.seats:
        tiles = form[tiles_field(seat)].data or []
        hands.append(
            HandEntry(
                seat=seat,
                total=form[total_field(seat)].data or "",
                tiles=[str(t) for t in tiles if isinstance(t, str)],
                went_out=bool(form[out_field(seat)].data),
            )
        )
    seat_ids = {str(s.id): s.id for s in game.seats}
    return RoundEntry(
        double=double,
        hands=hands,
        blocked=bool(form.blocked.data),
        out_on_double=bool(form.out_on_double.data),
        starter_seat_id=seat_ids.get(str(form.starter.data or "")),
    )


def data_from_round(rnd: Round) -> dict[str, Any]:
    """Form data that shows a saved round again (for editing, or after a conflict)."""
    data: dict[str, Any] = {
        "double": str(rnd.start_double),
        "blocked": rnd.outcome == RoundOutcome.BLOCKED,
        "out_on_double": any(h.out_on_double for h in rnd.hands),
        "starter": str(rnd.starter_seat_id or ""),
    }
    for hand in rnd.hands:
        data[f"out_{hand.seat_id}"] = hand.went_out
        if hand.tiles:
            data[f"tiles_{hand.seat_id}"] = list(hand.tiles)
        elif not hand.went_out:
            data[f"total_{hand.seat_id}"] = str(hand.points)
    return data


def parse_double(text: Any, set_size: int) -> int | None:
    """The double named by a hidden form field (``"9"``), or None for junk."""
    text = str(text or "").strip()
    if text.isascii() and text.isdigit() and len(text) <= 2 and int(text) <= set_size:
        return int(text)
    return None
