"""Forms for playing a game: scoring a round (per seat: a typed total, tapped tiles, "went out"),
and the small one-button forms (burn a double, undo, delete, restore, rematch).

Every form carries the CSRF token (Flask-WTF) and the game's version, so a double tap or a
second phone cannot save the same change twice.

The round form reads a round with WTForms: one :class:`HandForm` per seat (``FieldList`` of
``FormField``); :meth:`RoundForm.validate` hands what was entered, as plain hand entries, to
:func:`companion.services.round_check.check_entry` (the checks' one home, also called by the
players' auto-save without any form), which reads each hand and scores it with the engine
(RULES.md §6-§8). Messages stay on the field they are about (``form.hand(seat_id).total.errors``)
or on the form (``form.form_errors``). A hand's fields are named ``<part>_<seat id>``
(``total_12``, ``tiles_12``, ``out_12``, ``seen_12``: :func:`hand_field`).
"""

from __future__ import annotations

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
    HiddenField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields import Label

from ..engine import Tile
from ..models import Game, Round, Seat
from ..services.round_check import (
    HandEntry,
    HandPart,
    RoundEntry,
    RoundRules,
    ScoredRound,
    check_entry,
    hand_field,
)
from ..services.round_store import round_snapshot
from ..text import ascii_whole_number
from ..vocab import RoundOutcome
from .form_fields import EntryList, EntryNames
from .stale_forms import stale_form

NOT_RECORDED = ""


class VersionForm(FlaskForm):
    """A one-button form: CSRF plus the game version it was shown for."""

    version = HiddenField()


class BurnForm(VersionForm):
    """ "Nobody holds this double" when the house rule burns it: the double in question."""

    double = HiddenField()


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class HandForm(Form):
    """One hand of the round form: the seat's typed total, tapped tiles, "went out", and the
    revision of the posted hand that filled it. The round form checks the hands together
    (:func:`check_entry`) and puts each hand's messages on its total and tiles."""

    Meta = EntryNames  # seat 12's total is "total_12" (hand_field), not "hands-12-total"

    total = StringField(
        name=hand_field(HandPart.TOTAL, "{index}"),
        filters=[_strip],
        render_kw={
            # the phone's number pad (inputmode is enough since iOS 12.2; the form is sent
            # with every save, so no redundant pattern="[0-9]*")
            "inputmode": "numeric",
            "maxlength": "7",
        },
    )
    tiles = SelectMultipleField(name=hand_field(HandPart.TILES, "{index}"), validate_choice=False)
    out = BooleanField(_l("Went out"), name=hand_field(HandPart.OUT, "{index}"))
    seen = HiddenField(name=hand_field(HandPart.SEEN, "{index}"), default="")
    filled = HiddenField(name=hand_field(HandPart.FILLED, "{index}"), default="")

    def __init__(self, *args: Any, seat: Seat, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.total.label = Label(self.total.id, seat.player.name)
        #: what validation read: the typed total (points, None if blank) and the tapped tiles
        self.typed: int | None = None
        self.parsed: list[Tile] = []
        #: a refused save put the player's newer post in this box (it held its post untouched):
        #: the row says so, and the page's kept typing is not put back over it (class "took")
        self.took_post = False

    @property
    def who(self) -> str:
        """The name of the player in this seat, as messages say it."""
        return str(self.seat.player.name)

    def entry(self) -> HandEntry:
        """What was entered in this hand, as plain values for :func:`check_entry`."""
        tiles = [str(t) for t in self.tiles.data or [] if isinstance(t, str)]
        return HandEntry(self.seat, str(self.total.data or ""), tiles, bool(self.out.data))


class RoundForm(FlaskForm):
    """A round as the scorekeeper enters it; :func:`round_form` makes one for a game's seats.

    :meth:`validate_round` is the form's whole validation: WTForms' own (CSRF), then the round
    checked and scored by :func:`check_entry`, so a view reads one result; the messages are on
    the fields and in ``form_errors``.
    """

    version = HiddenField()
    double = HiddenField()
    blocked = BooleanField(_l("Nobody went out: the round was blocked"))
    out_on_double = BooleanField(_l("The last tile played was a double"))
    starter = SelectField(_l("Who started this round?"), validate_choice=False, default="")
    #: one hand per seat, in seat order, each indexed by its seat id (round_form)
    hands = EntryList(FormField(HandForm))

    #: the rules of the round being checked, set by validate_round
    checking: RoundRules | None = None

    def hand(self, seat_id: int) -> HandForm:
        """The hand of seat ``seat_id`` (KeyError for a seat not in the game)."""
        for entry in self.hands:
            if entry.form.seat.id == seat_id:
                return entry.form
        raise KeyError(seat_id)

    def hand_forms(self) -> list[HandForm]:
        """The hands in seat order."""
        return [entry.form for entry in self.hands]

    def validate_round(self, game: Game, double: int) -> ScoredRound | None:
        """Validate the form as the round of ``game`` with ``double`` and score it with the
        engine (RULES.md §6-§8). Returns the scored round, or None with the messages on the
        fields they are about and those about the round as a whole in ``form_errors``."""
        self.form_errors = []
        csrf = self._fields.get("csrf_token")
        if csrf is not None and not csrf.validate(self):
            # what was typed is not checked: the page is shown again to be saved once more
            if not stale_form():  # a stale form's notice already says what happened
                self.form_errors.append(
                    _("The form expired or was incomplete; check it and save again.")
                )
            return None
        self.checking = RoundRules.of(game, double)
        self.validate()
        return self.scored

    def validate(self, extra_validators: Any = None) -> bool:
        """WTForms' validation (CSRF), then the round checked and scored as plain entries
        (:func:`check_entry`): each message goes on the field it is about or into
        ``form_errors``, the scored round into ``self.scored``."""
        self.scored: ScoredRound | None = None
        fine = super().validate(extra_validators)
        if self.checking is None:
            return fine
        hands = self.hand_forms()
        entry = RoundEntry(
            double=self.checking.centre.high,
            hands=[h.entry() for h in hands],
            blocked=bool(self.blocked.data),
            out_on_double=bool(self.out_on_double.data),
            starter_seat_id=self.starter_seat_id(),
        )
        found = check_entry(entry, self.checking)
        self.form_errors.extend(found.round_problems)
        for hand, reading in zip(hands, found.hands, strict=True):
            hand.typed, hand.parsed = reading.typed, reading.tiles
            hand.total.errors.extend(reading.total_problems)
            hand.tiles.errors.extend(reading.tile_problems)
        if not fine or self.form_errors or found.scored is None:
            return False
        self.scored = found.scored
        return True

    def starter_seat_id(self) -> int | None:
        """The seat picked under "Who started this round?"; None for none (or junk)."""
        seat_ids = {str(h.seat.id): h.seat.id for h in self.hand_forms()}
        return seat_ids.get(str(self.starter.data or ""))

    def messages(self) -> list[str]:
        """Every message, those about the round first, then each hand's."""
        hands = [m for h in self.hand_forms() for m in (*h.total.errors, *h.tiles.errors)]
        return [*self.form_errors, *hands]


def round_form(
    game: Game, formdata: MultiDict | None = None, *, csrf: bool = True, **data: Any
) -> RoundForm:
    """A round form for ``game``'s seats, bound to ``formdata`` (a POST) or filled from ``data``
    (the hands' values under their field names: ``total_12=...``). ``csrf=False`` for a form
    built without a request's token (tests).

    The tile lists are not checked against choices here: the hands' validators parse them
    with the engine and say precisely what is wrong with each.
    """
    hands = [
        {
            "index": seat.id,
            "seat": seat,
            **{
                part.value: data.pop(hand_field(part, seat.id))
                for part in HandPart
                if hand_field(part, seat.id) in data
            },
        }
        for seat in game.seats
    ]
    meta = {} if csrf else {"csrf": False}
    form = RoundForm(formdata=formdata, hands=hands, meta=meta, **data)
    form.starter.choices = [(NOT_RECORDED, _l("Not recorded"))] + [
        (str(s.id), s.player.name) for s in game.seats
    ]
    return form


def data_from_round(rnd: Round) -> dict[str, Any]:
    """Form data that shows a saved round again (for editing, or after a conflict)."""
    data = round_end_data(round_snapshot(rnd))
    for hand in rnd.hands:
        data[hand_field(HandPart.OUT, hand.seat_id)] = hand.went_out
        if hand.tiles:
            data[hand_field(HandPart.TILES, hand.seat_id)] = list(hand.tiles)
        elif not hand.went_out:
            data[hand_field(HandPart.TOTAL, hand.seat_id)] = str(hand.points)
    return data


def round_end_data(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """Form data for how a round ended, as its :func:`round_snapshot` holds it (a saved round,
    or one an undo took away): its double, blocked, the last tile a double, who started."""
    return {
        "double": str(snapshot["start_double"]),
        "blocked": snapshot["outcome"] == RoundOutcome.BLOCKED,
        "out_on_double": any(h["out_on_double"] for h in snapshot["hands"]),
        "starter": str(snapshot["starter_seat_id"] or ""),
    }


def parse_double(text: Any, set_size: int) -> int | None:
    """The double named by a hidden form field (``"9"``), or None for junk."""
    text = str(text or "").strip()
    if ascii_whole_number(text) and len(text) <= 2 and int(text) <= set_size:
        return int(text)
    return None
