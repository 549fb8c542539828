"""Building blocks for forms with one subform per seat or player (WTForms ``FieldList`` of
``FormField``) whose fields keep the short names the pages, scripts and stored drafts use.

WTForms names entry 12's field ``total`` of a list ``hands`` ``hands-12-total``. The round
form has always called it ``total_12`` and the checker's hands ``hand_0`` and ``hand_0_text``:
:class:`EntryNames` names each field by its pattern (``StringField(name="total_{index}")``)
with the entry's index, and :class:`EntryList` makes exactly one entry per item of its data,
indexed as the item says (a seat id, a player's position), whatever else the post holds.

:class:`ConfirmedTilesForm` is the photo page's (templates/pips/photo.html), posted to the
scorekeeper's round (games) and to a player's own hand (table).

Below the blueprints: any blueprint's forms may use it.
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import FieldList, SelectMultipleField
from wtforms.utils import unset_value


class EntryNames:
    """The ``Meta`` of an :class:`EntryList` entry's form: a field's HTML name (and id) is its
    ``name`` pattern with ``{index}`` replaced by the entry's index, without WTForms' prefix."""

    def bind_field(self, form: Any, unbound_field: Any, options: dict[str, Any]) -> Any:
        # the entry's prefix is "<list name>-<index>-" (FieldList, then FormField)
        index = form._prefix.rstrip("-").rpartition("-")[2]
        named = {**options, "name": options["name"].format(index=index), "prefix": ""}
        return unbound_field.bind(form=form, **named)


class EntryList(FieldList):
    """A ``FieldList`` of ``FormField`` entries, one per item of its data (dicts, in order),
    entry ``item["index"]``: a posted form with a missing entry still has it (empty), and a
    field of an index not in the data is never read."""

    def process(self, formdata: Any, data: Any = unset_value, extra_filters: Any = None) -> None:
        self.entries: list[Any] = []
        self.object_data = data
        for item in data if data is not unset_value else ():
            self._add_entry(formdata, item, index=item["index"])


class ConfirmedTilesForm(FlaskForm):
    """The tiles confirmed on the photo page: one ``tile`` per tile read, each a tile's text,
    or empty where the photo left it unsure and nothing was picked."""

    tile = SelectMultipleField(validate_choice=False)

    def picks(self) -> list[str]:
        """The posted tiles in order (an empty one: not picked)."""
        return [str(t) for t in self.tile.data or []]
