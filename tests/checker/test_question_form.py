"""The checker's posted questions are read and checked by WTForms (QuestionForm, one
PlayerEntries per player): a refused question is one Problem naming the field to fix."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from companion.checker.asking import build_question
from companion.checker.context import table_from_args
from companion.checker.forms import QuestionForm
from companion.errors import Problem


@pytest.fixture()
def table(app):
    with app.test_request_context():
        yield table_from_args(MultiDict({"preset": "standard", "set": "9", "players": "3"}))


def ask(table, tab: str, **fields) -> dict | Problem:
    """The question (or Problem) of ``tab`` posted with ``fields``, with no position."""
    form = MultiDict()
    for name, value in fields.items():
        for v in value if isinstance(value, list) else [value]:
            form.add(name, v)
    return build_question(tab, form, table, None)


def test_each_player_has_an_entry_with_the_pages_field_names(table):
    form = QuestionForm.read(MultiDict({"hand_1": "5-4", "hand_1_text": "3-2"}), 3)
    entries = [e.form for e in form.players]
    assert [e.picked.name for e in entries] == ["hand_0", "hand_1", "hand_2"]
    assert [e.typed.name for e in entries] == ["hand_0_text", "hand_1_text", "hand_2_text"]
    assert [e.scores.name for e in entries] == ["scores_0", "scores_1", "scores_2"]
    assert entries[1].picked.data == ["5-4"] and entries[1].typed.data == "3-2"


def test_a_hand_is_ticked_and_typed_tiles_in_order(table):
    question = ask(table, "score", hand=["9-9"], hand_text="5-4, 3|2", went_out="1")
    assert not isinstance(question, Problem)
    assert question["input"]["hand"] == ["9-9", "5-4", "3-2"]
    assert question["input"]["went_out"] is True


def test_a_refused_question_names_its_field(table):
    problem = ask(table, "score", hand=["5-4"], hand_text="4-5")
    assert problem == Problem(problem.message, "hand")
    assert str(problem) == "4-5 is in the hand twice."
    problem = ask(table, "tie", scores_0="12, 3", scores_1="x", scores_2="1")
    assert (problem.field, str(problem)) == ("scores_1", '"x" is not a score in points.')
    problem = ask(table, "tie", scores_0="12, 3", scores_1="1", scores_2="1")
    assert problem.field == "scores_0" and "the numbers of rounds differ" in str(problem)
    problem = ask(table, "nope")
    assert (problem.field, str(problem)) == ("q", "Choose a question.")
    problem = ask(table, "move")
    assert (problem.field, str(problem)) == ("pos", "Fix the position first.")


def test_a_huge_typed_score_or_tile_is_not_quoted_back_whole(table):
    problem = ask(table, "tie", scores_0="12, 3", scores_1="7" * 5000, scores_2="1")
    assert problem.field == "scores_1"
    assert str(problem) == '"' + "7" * 60 + '…" is not a score in points.'
    problem = ask(table, "score", hand_text="9" * 5000)
    assert str(problem) == "Could not read '" + "9" * 60 + "…' as a tile; write tiles like 5-0."


def test_a_count_that_is_not_a_whole_number_is_refused_in_words_not_a_500(table):
    # "²" is a digit to str.isdigit but not to int(): it raised ValueError before
    problem = ask(table, "edge", edge="capacity", spokes="²")
    assert (problem.field, str(problem)) == ("spokes", '"²" is not a whole number.')
    problem = ask(table, "edge", edge="announce", yard_count="-1")
    assert (problem.field, str(problem)) == ("yard_count", '"-1" is not a whole number.')
    question = ask(table, "edge", edge="capacity", spokes="")
    assert question["input"]["requested_center_spokes"] == table.spokes
