"""Forms for game nights, new games and the instance passcode (Flask-WTF, CSRF on each).

House-rule switches come from the engine's :data:`SWITCHES`: one select (or number box for the
integer-only switches) per switch, whose options are encoded as text by :func:`encode_value`
and decoded back to typed values by :func:`rule_overrides`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from ..engine import PRESET_TITLES, PRESETS, SWITCH_BY_NAME, SWITCHES
from ..engine.rules import PLAYERS_MAX, Switch
from ..ids import ID_DIGITS, ID_MAX
from ..models import NAME_MAX
from ..night_fields import notes_field, place_field, seen_field
from ..text import DIGITS_ONLY_MESSAGE, PlainText, ascii_whole_number, stripped
from .engine_strings import translated

#: switches the new-game page does not show as house rules (the set has its own field)
HIDDEN_SWITCHES = frozenset({"set_size"})
#: blank rows for new names on a fresh page, and how many "more names" adds
NEW_NAME_ROWS, MORE_NAME_ROWS = 4, 4


class WholeNumberField(IntegerField):
    """An integer field that refuses numbers with more digits than any id or game value has
    (:data:`companion.ids.ID_DIGITS`), before converting them: a 400-digit number is a clear
    "not a whole number in range" message, never an overflow in a range check or the database.
    """

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and isinstance(valuelist[0], str):
            digits = valuelist[0].strip().lstrip("+-")
            if len(digits) > ID_DIGITS:
                self.data = None
                raise ValueError(str(_l("That number has far too many digits.")))
            if digits and not ascii_whole_number(digits):
                # int() reads "３" and "٢"; the points boxes refuse them: so does this form
                self.data = None
                raise ValueError(str(DIGITS_ONLY_MESSAGE))
        super().process_formdata(valuelist)


_INVALID_CHOICE = _l("Choose one of the listed options.")


def _select(label: Any, choices: list[SelectChoice], **kwargs: Any) -> SelectField:
    """A select that refuses values not offered (e.g. posted by hand) with a clear message,
    not WTForms' terse "Not a valid choice"."""
    return SelectField(
        label,
        choices=choices,
        invalid_choice_message=_INVALID_CHOICE,
        invalid_value_message=_INVALID_CHOICE,
        **kwargs,
    )


# --- game nights ---------------------------------------------------------------------------


class NightForm(FlaskForm):
    """A new game night: the date (today by default), an optional place and notes."""

    played_on = DateField(
        _l("Date"),
        default=date.today,
        validators=[InputRequired(_l("Choose the date of the game night."))],
    )
    place = place_field(_l("Place (optional)"))
    notes = notes_field(_l("Notes (optional)"))
    submit = SubmitField(_l("Start the game night"))


class NotesForm(FlaskForm):
    """Edit a night's place and notes."""

    place = NightForm.place
    notes = NightForm.notes
    seen = seen_field()
    submit = SubmitField(_l("Save notes"))


class PasscodeForm(FlaskForm):
    """The instance passcode, asked once per browser session before creating anything."""

    passcode = PasswordField(
        _l("Passcode"),
        validators=[
            InputRequired(_l("Enter the passcode.")),
            Length(max=200, message=_l("That is not the passcode.")),
        ],
    )
    next = HiddenField()
    submit = SubmitField(_l("Continue"))


class AdmitForm(FlaskForm):
    """The code a phone past the passcode limit shows, typed on a scorekeeper's or the
    host's phone to let it in (companion.access.admit_phone)."""

    code = StringField(
        _l("The code on that phone"),
        validators=[
            InputRequired(_l("Type the code that phone shows.")),
            Length(max=20, message=_l("Type the code that phone shows.")),
        ],
    )
    submit = SubmitField(_l("Let this phone in"))


# --- new game ------------------------------------------------------------------------------

_SEAT_RANGE = NumberRange(
    min=1, max=PLAYERS_MAX, message=_l("A seat number is from %(min)s to %(max)s.")
)


class KnownPlayerRow(Form):
    """A person seen before: play in this game or not, and at which seat."""

    player_id = WholeNumberField(
        widget=HiddenInput(), validators=[InputRequired(), NumberRange(min=1, max=ID_MAX)]
    )
    plays = BooleanField(_l("Plays"))
    seat = WholeNumberField(_l("Seat"), validators=[Optional(), _SEAT_RANGE])


class NewPlayerRow(Form):
    """A name typed in for this game (matched to people seen before, case-insensitively)."""

    name = StringField(
        _l("Name"),
        filters=[stripped],
        validators=[
            Length(max=NAME_MAX, message=_l("A name has at most %(max)d characters.")),
            PlainText(_l("A player's name cannot contain invisible characters.")),
        ],
        render_kw={"maxlength": NAME_MAX},
    )
    seat = WholeNumberField(_l("Seat"), validators=[Optional(), _SEAT_RANGE])


def encode_value(value: Any) -> str:
    """A switch value as form text: ``true``/``false`` for booleans, digits for integers."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _decode_value(switch: Switch, text: Any) -> Any:
    """The typed value of a switch from form text (the option whose encoding matches)."""
    for choice in switch.choices:
        if encode_value(choice.value) == text:
            return choice.value
    for extra in switch.extra:
        if encode_value(extra) == text:
            return extra
    return text


def switch_options(switch: Switch, current: Any = None) -> list[SelectChoice]:
    """The (value, label) options of a switch's select; ``current`` is added when it is an
    allowed value the list does not offer (e.g. 5 spokes stored from the API)."""
    options = [SelectChoice(encode_value(c.value), translated(c.meaning)) for c in switch.choices]
    if current is not None and encode_value(current) not in {o.value for o in options}:
        options.append(SelectChoice(encode_value(current)))
    return options


def _switch_field(switch: Switch) -> Field:
    if switch.choices:
        return _select(translated(switch.summary), switch_options(switch))
    return WholeNumberField(
        translated(switch.summary),
        validators=[
            Optional(),
            NumberRange(
                min=switch.minimum,
                max=switch.maximum,
                message=_l("Use a whole number from %(min)s to %(max)s."),
            ),
        ],
    )


#: the house-rule subform: one field per shown switch, plus the preset its values came from
RulesForm: type[Form] = type(
    "RulesForm",
    (Form,),
    {
        "applied_preset": HiddenField(),
        **{s.name: _switch_field(s) for s in SWITCHES if s.name not in HIDDEN_SWITCHES},
    },
)


def shown_switches() -> list[Switch]:
    """The switches offered on the new-game page, in the engine's order."""
    return [s for s in SWITCHES if s.name not in HIDDEN_SWITCHES]


class NewGameForm(FlaskForm):
    """Players and seats, the set and the house rules of a new game."""

    known = FieldList(FormField(KnownPlayerRow), max_entries=500)
    new = FieldList(FormField(NewPlayerRow), min_entries=NEW_NAME_ROWS, max_entries=PLAYERS_MAX)
    set_size = _select(
        _l("Domino set"),
        [
            SelectChoice(str(c.value), translated(c.meaning))
            for c in sorted(SWITCH_BY_NAME["set_size"].choices, key=lambda c: c.value)
        ],
        coerce=int,
        default=9,
    )
    preset = _select(
        _l("House rules preset"),
        [SelectChoice(name, translated(PRESET_TITLES.get(name, name))) for name in PRESETS],
        default="standard",
    )
    rules = FormField(RulesForm)
    chosen_spokes = WholeNumberField(
        _l("Spokes the table chose"),
        validators=[
            Optional(),
            NumberRange(min=2, max=18, message=_l("Choose from %(min)s to %(max)s spokes.")),
        ],
    )
    create = SubmitField(_l("Start the game"))
    apply_preset = SubmitField(_l("Apply preset"))
    more_names = SubmitField(_l("More name rows"))
    same_players = SubmitField(_l("Same players as last game"))
    check = SubmitField(_l("Update the deal"))

    def rule_overrides(self) -> dict[str, Any]:
        """The house-rule switches as typed values (blank number boxes left out)."""
        out: dict[str, Any] = {}
        for switch in shown_switches():
            data = self.rules.form[switch.name].data
            if data is None or data == "":
                continue
            out[switch.name] = _decode_value(switch, data) if switch.choices else data
        return out

    def set_rules(self, values: dict[str, Any], preset_name: str) -> None:
        """Show ``values`` (switch -> value, e.g. a preset's RuleSet.to_dict()) in the house
        rules, remembering that they came from ``preset_name``."""
        sub = self.rules.form
        sub.applied_preset.data = preset_name
        for switch in shown_switches():
            field = sub[switch.name]
            value = values.get(switch.name)
            if switch.choices:
                field.choices = switch_options(switch, value)
                field.data = encode_value(value)
            else:
                field.data = value


class PhotoStartForm(FlaskForm):
    """ "Count this hand's pips from a photo" on the round form: the seat whose hand it is (a
    whole number, or None for junk: the view answers 404)."""

    photo_seat = IntegerField()


class OpenPickerForm(FlaskForm):
    """Without JavaScript, "Tap …'s tiles" submits the round form with ``open_picker``: the
    seat id whose picker to open (the round form itself is read by its own form)."""

    open_picker = StringField()

    def opens(self) -> bool:
        """True when the post came from a "Tap the tiles" button (whatever its value)."""
        return bool(self.open_picker.raw_data)
