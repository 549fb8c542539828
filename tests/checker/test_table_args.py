"""The checker's table arguments are read by WTForms (issue 9, finding 3), with the same
fallbacks as before: a value that cannot be read is replaced by the default and said."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from companion.checker.context import table_from_args
from companion.checker.forms import TableArgs


def test_the_form_reads_numbers_and_leaves_unreadable_ones_empty() -> None:
    form = TableArgs.read(MultiDict({"preset": " ", "set": " 12 ", "players": "x", "centre": ""}))
    assert form.preset.data == "standard"
    assert (form.number("set"), form.number("players"), form.number("centre")) == (12, None, None)


def test_a_plain_mapping_is_read_too() -> None:
    assert TableArgs.read({"set": "6"}).number("set") == 6


def test_unreadable_values_fall_back_and_are_said(app) -> None:  # noqa: ANN001
    with app.test_request_context():
        table = table_from_args(MultiDict({"preset": "nope", "set": "7", "players": "two"}))
    assert (table.preset, table.set_size, len(table.players)) == ("standard", 9, 4)
    assert "nope" in table.problem and "double-7" in table.problem
