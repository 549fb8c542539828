"""Forms of the history pages. Filters are GET forms without CSRF (they change nothing);
every form that changes something is a FlaskForm with CSRF."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import DateField, Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional, ValidationError

from ..engine import SUPPORTED_SETS
from ..ids import parse_id
from ..models import NAME_MAX
from ..night_fields import notes_field, seen_field
from ..text import PlainText
from ..vocab import RankBy

SEARCH_MAX = 100


def options(pairs: list[tuple[int, str]], anyone: str | None = None) -> list[SelectChoice]:
    """Select options from (id, label) pairs, with a first "any" option (value "") if given."""
    first = [SelectChoice("", anyone)] if anyone is not None else []
    return first + [SelectChoice(str(value), label) for value, label in pairs]


def _optional_int(value: object) -> int | None:
    """Coerce a select value (an id or a set size) to int; empty, junk or a number no row
    could have (:func:`companion.ids.parse_id`) means "any" (None)."""
    return parse_id(value)


class FilterDate(DateField):
    """A filter's date (year-month-day); what cannot be read as one is named in the message,
    which also says the filter was ignored (the views then leave it out)."""

    def process_formdata(self, valuelist: Sequence[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            typed = " ".join(str(v) for v in valuelist)
            raise ValueError(
                _(
                    "“%(value)s” is not a date (write it as year-month-day, e.g. 2026-12-03); "
                    "this filter was ignored.",
                    value=typed,
                )
            ) from None


class _DateRange(Form):
    """A date range, both ends optional and inclusive; refuses an end before the start."""

    date_from = DateField(_l("From"), validators=[Optional()])
    date_to = DateField(_l("To"), validators=[Optional()])

    def validate_date_to(self, field: DateField) -> None:
        """The end of the range may not come before its start."""
        if field.data and self.date_from.data and field.data < self.date_from.data:
            raise ValidationError(_l("The end date comes before the start date."))


class NightFilterForm(_DateRange):
    """Search the nights list: text (place, notes, player names), one player, dates."""

    q = StringField(
        _l("Search"),
        validators=[Optional(), Length(max=SEARCH_MAX)],
        description=_l("Place, notes or a player's name"),
        render_kw={"maxlength": SEARCH_MAX},
    )
    player = SelectField(_l("Player"), coerce=_optional_int, validate_choice=False)


class LeaderboardForm(_DateRange):
    """Choose the leaderboard's period and set; a filter not understood is named in words and
    ignored (a typed address, e.g. ``?from=2026-13-45&set=77``)."""

    date_from = FilterDate(_l("From"), validators=[Optional()])
    date_to = FilterDate(_l("To"), validators=[Optional()])

    set_size = SelectField(
        _l("Set"),
        coerce=_optional_int,
        choices=[SelectChoice("", _l("Any set"))]
        + [SelectChoice(str(n), _l("Double-%(n)s", n=n)) for n in sorted(SUPPORTED_SETS)],
        validate_choice=False,
    )

    by = SelectField(
        _l("Rank by"),
        choices=[
            SelectChoice(RankBy.WINS, _l("Wins")),
            SelectChoice(RankBy.RATING, _l("Skill rating")),
        ],
        default=RankBy.WINS,
        validate_choice=False,
    )

    #: short names a typed address may use for the fields (``?from=&to=&set=``)
    ALIASES = {"from": "date_from", "to": "date_to", "set": "set_size"}

    def __init__(self, args: MultiDict[str, str]) -> None:
        """The form from a query string; names it does not know are kept in :attr:`ignored`
        (shown as "not understood, ignored"), short names (:attr:`ALIASES`) are read as
        their fields."""
        data: MultiDict[str, str] = MultiDict()
        self.ignored: list[str] = []
        for name, value in args.items(multi=True):
            field = self.ALIASES.get(name, name)
            if field in ("date_from", "date_to", "set_size", "by"):
                if field not in data:
                    data.add(field, value)
            elif name not in self.ignored:
                self.ignored.append(name)
        super().__init__(data)

    def validate_set_size(self, field: SelectField) -> None:
        """A set this app does not have is named and ignored (the view leaves it out)."""
        typed = (field.raw_data or [""])[0].strip()
        if typed and field.data not in SUPPORTED_SETS:
            raise ValidationError(
                _(
                    "“%(value)s” is not a set here (double-%(low)s to double-%(high)s); "
                    "this filter was ignored.",
                    value=typed,
                    low=min(SUPPORTED_SETS),
                    high=max(SUPPORTED_SETS),
                )
            )

    @property
    def by_rating(self) -> bool:
        """Rank by skill rating (anything else typed: by wins)."""
        return self.by.data == RankBy.RATING


class SeasonForm(_DateRange):
    """Choose a season: a calendar year, or any date range (which wins when given)."""

    year = SelectField(_l("Year"), coerce=_optional_int, validate_choice=False)
    date_from = FilterDate(_l("From"), validators=[Optional()])
    date_to = FilterDate(_l("To"), validators=[Optional()])

    def __init__(self, args: MultiDict[str, str]) -> None:
        """The form from a query string; ``?from=&to=`` are read as the dates (as on the
        leaderboard)."""
        data: MultiDict[str, str] = MultiDict()
        for name, value in args.items(multi=True):
            data.add(LeaderboardForm.ALIASES.get(name, name), value)
        super().__init__(data)


class NotesForm(FlaskForm):
    """Edit a game night's notes (the field the games blueprint's night page uses too)."""

    notes = notes_field(_l("Notes"))
    seen = seen_field()


class RenameForm(FlaskForm):
    """Rename a player; uniqueness (case-insensitive) is checked by the view."""

    name = StringField(
        _l("New name"),
        validators=[
            DataRequired(message=_l("Type the new name.")),
            Length(max=NAME_MAX, message=_l("A name has at most %(max)d characters.")),
            PlainText(_l("A player's name cannot contain invisible characters.")),
        ],
        render_kw={"maxlength": NAME_MAX},
    )


class MergeForm(FlaskForm):
    """Choose the player to keep when merging two entries for the same person."""

    into = SelectField(
        _l("Same person as"),
        coerce=_optional_int,
        validators=[DataRequired(message=_l("Choose the player to keep."))],
    )


class ConfirmForm(FlaskForm):
    """An empty form: a confirmation button with its CSRF token."""
