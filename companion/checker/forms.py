"""The checker's forms, read by WTForms (one way to read a form, as in the other blueprints).

:class:`TableArgs` reads the table of the URL or the posted form (``?preset=&set=&players=
&centre=``). It is a plain ``wtforms.Form`` (no CSRF token): the same fields arrive by GET links
and inside the question forms, whose token Flask-WTF's CSRF protection checks for the whole post.
A value that cannot be read leaves its field empty; then
:func:`companion.checker.context.table_from_args` uses the default and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import MultiDict
from wtforms import Form, IntegerField, StringField
from wtforms.validators import Optional


class TableArgs(Form):
    """The table a question is asked under: a preset's name, the set (double-N), the number of
    players and the centre double (its number of pips)."""

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
