"""Forms for playing a game: scoring a round (per seat: a typed total, tapped tiles, "went out"),
and the small one-button forms (burn a double, undo, delete, restore, rematch).

Every form carries the CSRF token (Flask-WTF) and the game's version, so a double tap or a
second phone cannot save the same change twice.

The round form reads and checks a round with WTForms alone: one :class:`HandForm` per seat
(``FieldList`` of ``FormField``), whose validators parse what was typed with the engine, then
:meth:`RoundForm.validate` checks the round as a whole and scores each hand with the engine
(:mod:`companion.services.round_check`, RULES.md §6-§8). Messages stay on the field they are
about (``form.hand(seat_id).total.errors``) or on the form (``form.form_errors``). A hand's
fields are named ``<part>_<seat id>`` (``total_12``, ``tiles_12``, ``out_12``, ``seen_12``:
:func:`hand_field`), as the templates, static/js/score.js and table.js, the offline outbox and
the photo drafts know them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
from wtforms.validators import ValidationError

from ..engine import DominoSet, RuleSet, Tile
from ..errors import Problem
from ..mapping import dominoes_of, rules_of
from ..models import Game, Round, Seat
from ..text import ascii_whole_number
from ..vocab import RoundOutcome
from ..web.form_fields import EntryList, EntryNames
from ..web.stale_forms import stale_form
from .round_check import (
    HandCheck,
    HandPart,
    ScoredHand,
    ScoredRound,
    parse_tiles,
    parse_total,
    placement_problems,
    round_end_problems,
    score_bound,
    score_entry,
)

NOT_RECORDED = ""


class VersionForm(FlaskForm):
    """A one-button form: CSRF plus the game version it was shown for."""

    version = HiddenField()


class BurnForm(VersionForm):
    """ "Nobody holds this double" when the house rule burns it: the double in question."""

    double = HiddenField()


def hand_field(part: HandPart | str, seat_id: int | str) -> str:
    """The name of a hand's field on the round form: ``total_12`` for seat 12's typed total."""
    return f"{part}_{seat_id}"


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


@dataclass(frozen=True)
class RoundRules:
    """What checking a round's hands needs (RULES.md §6): the house rules, the set, the
    round's centre double and the most points a typed total may have (points)."""

    rules: RuleSet
    dominoes: DominoSet
    centre: Tile
    bound: int

    @classmethod
    def of(cls, game: Game, double: int) -> RoundRules:
        """The rules for the round of ``game`` that starts with ``double``."""
        return cls(
            rules_of(game), dominoes_of(game), Tile(double, double), score_bound(game, double)
        )


class HandForm(Form):
    """One hand of the round form: the seat's typed total, tapped tiles, "went out", and the
    revision of the posted hand that filled it. Its validators read the total and the tiles
    with the engine; the round form checks the hands together and scores them."""

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

    @property
    def who(self) -> str:
        """The name of the player in this seat, as messages say it."""
        return str(self.seat.player.name)

    def _rules(self) -> RoundRules:
        checking = self._parent_form.checking if self._parent_form is not None else None
        if checking is None:
            raise RuntimeError("a hand is checked by RoundForm.validate_round")
        return checking

    def validate_total(self, field: StringField) -> None:
        """A typed total is a whole number of points no hand could exceed (parse_total)."""
        self.typed, problem = parse_total(field.data or "", self.who, self._rules().bound)
        if problem:
            raise ValidationError(problem)

    def validate_tiles(self, field: SelectMultipleField) -> None:
        """Every tapped tile is a tile of the set, each counted once (parse_tiles)."""
        texts = [str(t) for t in field.data or [] if isinstance(t, str)]
        self.parsed, problems = parse_tiles(self._rules().dominoes, texts, self.who)
        field.errors.extend(problems)

    def add(self, problem: Problem) -> None:
        """Show ``problem`` on the field of this hand it is about (the total by default)."""
        part = HandPart(problem.field) if problem.field else HandPart.TOTAL
        self[part.value].errors.append(str(problem))


class RoundForm(FlaskForm):
    """A round as the scorekeeper enters it; :func:`round_form` makes one for a game's seats.

    :meth:`validate_round` is the form's whole validation: WTForms' own (CSRF, each hand read
    with the engine), then the round as a whole and each hand scored by the engine, so a view
    reads one result; the messages are on the fields and in ``form_errors``.
    """

    version = HiddenField()
    double = HiddenField()
    blocked = BooleanField(_l("Nobody went out: the round was blocked"))
    out_on_double = BooleanField(_l("The last tile played was a double"))
    starter = SelectField(_l("Who started this round?"), validate_choice=False, default="")
    #: one hand per seat, in seat order, each indexed by its seat id (round_form)
    hands = EntryList(FormField(HandForm))

    #: the round being checked, set by validate_round for the hands' validators
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
        """WTForms' validation (CSRF, each hand's total and tiles), then the round as a whole:
        who went out, no tile twice or the centre double, each hand scored (``self.scored``)."""
        self.scored: ScoredRound | None = None
        fine = super().validate(extra_validators)
        if self.checking is None:
            return fine
        hands = self.hand_forms()
        outs = sum(1 for h in hands if h.out.data)
        blocked = bool(self.blocked.data)
        self.form_errors.extend(str(p) for p in round_end_problems(outs, blocked))
        scored = self._score(hands, self.checking)
        if not fine or self.form_errors or scored is None:
            return False
        outcome = RoundOutcome.BLOCKED if blocked else RoundOutcome.OUT
        self.scored = ScoredRound(self.checking.centre.high, outcome, self._starter(), scored)
        return True

    def _score(self, hands: list[HandForm], checking: RoundRules) -> tuple[ScoredHand, ...] | None:
        """Each hand scored by the engine, or None when any hand has a message."""
        seen: dict[Tile, str] = {}
        scored: list[ScoredHand] = []
        refused = False
        for hand in hands:
            for problem in placement_problems(hand.parsed, checking.centre, seen, hand.who):
                hand.add(problem)
            if hand.total.errors or hand.tiles.errors:
                refused = True
                continue
            check = HandCheck(hand.seat.id, hand.who, hand.typed, hand.parsed, bool(hand.out.data))
            result = score_entry(
                check, checking.rules, checking.centre, bool(self.out_on_double.data)
            )
            if isinstance(result, Problem):
                hand.add(result)
                refused = True
            else:
                scored.append(result)
        return None if refused else tuple(scored)

    def _starter(self) -> int | None:
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
    (the hands' values under their field names: ``total_12=...``). ``csrf=False`` for a round
    checked without a page (the posted hands' auto-save).

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


@dataclass
class HandEntry:
    """What was entered for one seat, for a round checked without a page: a typed total
    (raw text) and/or tapped tiles (raw texts)."""

    seat: Seat
    total: str = ""
    tiles: list[str] = field(default_factory=list)
    went_out: bool = False


@dataclass
class RoundEntry:
    """A round entered without a page: its double, the hands, blocked, who started."""

    double: int
    hands: list[HandEntry]
    blocked: bool = False
    out_on_double: bool = False
    starter_seat_id: int | None = None


def check_round(game: Game, entry: RoundEntry) -> tuple[ScoredRound | None, list[str]]:
    """Check and score a round entered without a page (benchmarks, seeded games) with the
    round form's own checks. Returns the scored round, or None and every message."""
    data: dict[str, Any] = {
        "double": str(entry.double),
        "blocked": entry.blocked,
        "out_on_double": entry.out_on_double,
        "starter": str(entry.starter_seat_id or ""),
    }
    for hand in entry.hands:
        data[hand_field(HandPart.TOTAL, hand.seat.id)] = hand.total
        data[hand_field(HandPart.TILES, hand.seat.id)] = list(hand.tiles)
        data[hand_field(HandPart.OUT, hand.seat.id)] = hand.went_out
    form = round_form(game, csrf=False, **data)
    scored = form.validate_round(game, entry.double)
    return scored, form.messages()


def data_from_round(rnd: Round) -> dict[str, Any]:
    """Form data that shows a saved round again (for editing, or after a conflict)."""
    data: dict[str, Any] = {
        "double": str(rnd.start_double),
        "blocked": rnd.outcome == RoundOutcome.BLOCKED,
        "out_on_double": any(h.out_on_double for h in rnd.hands),
        "starter": str(rnd.starter_seat_id or ""),
    }
    for hand in rnd.hands:
        data[hand_field(HandPart.OUT, hand.seat_id)] = hand.went_out
        if hand.tiles:
            data[hand_field(HandPart.TILES, hand.seat_id)] = list(hand.tiles)
        elif not hand.went_out:
            data[hand_field(HandPart.TOTAL, hand.seat_id)] = str(hand.points)
    return data


def parse_double(text: Any, set_size: int) -> int | None:
    """The double named by a hidden form field (``"9"``), or None for junk."""
    text = str(text or "").strip()
    if ascii_whole_number(text) and len(text) <= 2 and int(text) <= set_size:
        return int(text)
    return None
