"""The checker's table arguments are read by WTForms (issue 9, finding 3), with the same
fallbacks as before: a value that cannot be read is replaced by the default and said."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from companion.checker.context import table_from_args
from companion.checker.forms import PositionArgs, TableArgs


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


def test_the_position_arguments_are_read_by_a_form_too() -> None:
    shown = PositionArgs.read(MultiDict({"pos": "6-6 ; 6-5", "q": "move", "sel": "S1"}))
    assert (shown.pos.data, shown.tab(), shown.sel.data) == ("6-6 ; 6-5", "move", "S1")
    assert shown.ruling.data is None  # no ruling asked for: none looked up
    assert (shown.tile.data, shown.on.data) == ("", "")


def test_a_question_tab_that_does_not_exist_reads_as_none() -> None:
    assert PositionArgs.read(MultiDict({"q": "<script>"})).tab() == ""
    assert PositionArgs.read(MultiDict()).tab() == ""
