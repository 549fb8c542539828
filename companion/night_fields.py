"""A game night's own text, its place and its notes, as form fields: declared once for the two
pages that edit them (the games blueprint's night page and new-night form, the history
blueprint's night page), so both strip the text, apply the column limits
(:data:`companion.models.PLACE_MAX`, :data:`companion.models.NOTES_MAX`) as validators and as
the inputs' ``maxlength``, and the one free-text rule (:class:`companion.text.PlainText`). The
service that stores them (:func:`companion.services.game_setup.update_night_notes`) checks
the same limits again after cleaning.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from .models import NOTES_MAX, PLACE_MAX
from .text import PlainText, stripped


def place_field(label: Any) -> StringField:
    """A night's place (one line, at most :data:`PLACE_MAX` characters, optional)."""
    return StringField(
        label,
        filters=[stripped],
        validators=[
            Optional(),
            Length(max=PLACE_MAX, message=_l("The place has at most %(max)d characters.")),
            PlainText(),
        ],
        render_kw={"maxlength": PLACE_MAX},
    )


def notes_field(label: Any) -> TextAreaField:
    """A night's notes (several lines, at most :data:`NOTES_MAX` characters, optional)."""
    return TextAreaField(
        label,
        filters=[stripped],
        validators=[
            Optional(),
            Length(max=NOTES_MAX, message=_l("Notes have at most %(max)d characters.")),
            PlainText(),
        ],
        render_kw={"maxlength": NOTES_MAX},
    )


def seen_field() -> HiddenField:
    """What a notes form was shown with: the fingerprint of the night's place and notes
    (:func:`companion.services.game_setup.night_text_seen`), sent back with a save so that one
    made after another phone changed them is refused, not silently replacing that phone's
    text."""
    return HiddenField()
