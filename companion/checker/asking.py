"""The checker's questions: form fields -> a QUESTIONS.md question -> the engine's answer
(and back: a saved question -> the form that asks it again). The answer is put in words for the
page by :mod:`companion.checker.explaining`.

No rule is decided here: :func:`companion.engine.answer` decides; this module only reads forms,
including what the table knows when it asks whether the round is over, without every hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms.validators import AnyOf

from ..engine import Layout, answer
from ..errors import Problem, Refused
from ..words import error_words, names_list
from .context import TableSetting
from .forms import QUESTIONS, QuestionForm

__all__ = ["QUESTIONS", "build_question"]


def _read(form: Any, field: Any, *extra: Any) -> Any:
    """``field``'s value once WTForms validated it (with ``extra`` validators too). A question
    is refused at its first problem, as the page shows one: raises Refused with it."""
    if not field.validate(form, extra):
        raise Refused(Problem(field.errors[0], field.name))
    return field.data


def _count(form: QuestionForm, field: Any, default: int) -> int:
    """A whole number typed in ``field``, ``default`` when left blank."""
    value = _read(form, field)
    return default if value is None else int(value)


def _tiles(form: Any, field: Any) -> list[str]:
    """The tiles of a hand's picker and the text typed beside it (validator HandTiles)."""
    _read(form, field)
    return list(field.tiles)


def build_question(
    tab: str, formdata: MultiDict, table: TableSetting, layout: Layout | None
) -> dict[str, Any] | Problem:
    """The QUESTIONS.md question for question tab ``tab`` from the posted ``formdata``, read by
    :class:`companion.checker.forms.QuestionForm`; or the Problem with the first missing or
    unreadable field, or when the question needs a position and there is none.
    """
    form = QuestionForm.read(formdata, len(table.players))
    form.q.data = tab
    try:
        return _question(form, tab, table, layout)
    except Refused as refused:
        return refused.problems[0]


def _question(
    form: QuestionForm, tab: str, table: TableSetting, layout: Layout | None
) -> dict[str, Any]:
    _read(form, form.q)
    category = QUESTIONS[tab][0]
    data: dict[str, Any] = dict(table.base_input())
    needs_layout = tab in ("move", "draw", "end")
    if needs_layout:
        if layout is None:
            raise Refused(Problem(_("Fix the position first."), "pos"))
        data["layout"] = layout.to_json()
    if tab == "move":
        data["move"] = {"tile": _read(form, form.tile), "on": _read(form, form.on)}
    elif tab == "draw":
        data["hand"] = _tiles(form, form.hand)
        if not data["hand"]:
            raise Refused(Problem(_("Enter your hand: tick its tiles or type them."), "hand"))
        data["yard_count"] = _count(form, form.yard_count, 0)
        drawn = form.tile_drawn.data or ""
        if drawn:
            data["tile_drawn"] = drawn
    elif tab == "end":
        data.update(_round_end_input(form, table))
    elif tab == "score":
        data["hand"] = _tiles(form, form.hand)
        data["went_out"] = bool(form.went_out.data)
        data["last_tile_was_double"] = bool(form.last_double.data)
        data["round_start_double"] = table.centre
        if form.round_end.data in ("OUT", "BLOCKED"):
            data["round_end"] = form.round_end.data
    elif tab == "edge":
        data.update(_edge_input(form, table))
    else:
        data["round_scores"] = _all_scores(form, table.players)
    return {"category": category, "ruleset": table.ruleset_spec(), "input": data}


def _all_scores(form: QuestionForm, players: tuple[str, ...]) -> dict[str, list[int]]:
    """The round scores of the players entered: a tie is between some of the table's players
    (two of four, say), so a player left blank is not in it. Refused when fewer than two are
    entered (naming the players still blank) or when they played different numbers of rounds
    (a tie-break compares whole games, RULES.md §8: a round is missing somewhere)."""
    scores: dict[str, list[int]] = {}
    blank: list[str] = []
    for name, entry in zip(players, form.players, strict=True):
        if not str(entry.form.scores.data or "").strip():
            blank.append(name)
            continue
        _read(entry.form, entry.form.scores)
        scores[name] = list(entry.form.scores.points)
    first_field = form.players[0].form.scores.name
    if len(scores) < 2:
        field = next(
            e.form.scores.name for n, e in zip(players, form.players, strict=True) if n in blank
        )
        message = _(
            "A tie needs the round scores of at least two players; enter them for: %(names)s.",
            names=names_list(blank),
        )
        raise Refused(Problem(message, field))
    counts = {len(points) for points in scores.values()}
    if len(counts) > 1:
        each = ", ".join(f"{name}: {len(points)}" for name, points in scores.items())
        message = _(
            "Every player needs a score for each round, but the numbers of rounds "
            "differ (%(each)s).",
            each=each,
        )
        raise Refused(Problem(message, first_field))
    return scores


class Situation(StrEnum):
    """What the table knows when it asks "is the round over?" (RULES.md §6): it need not
    enter every hand for the common cases."""

    BLOCKED = "blocked"  # nobody could play and the chicken yard is empty
    OUT = "out"  # someone laid their last tile
    PASSED = "passed"  # everyone passed, but the yard still has tiles
    HANDS = "hands"  # not sure: judge from the hands


#: situation -> the button that asks it
SITUATIONS: dict[str, Any] = {
    Situation.BLOCKED: _l("Nobody could play and the chicken yard is empty"),
    Situation.PASSED: _l("Everyone passed, but the chicken yard still has tiles"),
    Situation.OUT: _l("Someone went out"),
}


def _round_end_input(form: QuestionForm, table: TableSetting) -> dict[str, Any]:
    """The round-end input for what the table knows: no hands when the situation says enough
    (nobody can play: hands that cannot play add nothing; someone went out: their empty
    hand), every hand when the table is not sure."""
    # a "<name> went out" button sends only ``who``
    situation = str(form.situation.data or (Situation.OUT if form.who.data else "hands"))
    if situation == Situation.BLOCKED:
        return {"hands": {}, "yard_count": 0}
    if situation == Situation.PASSED:
        return {"hands": {}, "yard_count": _count(form, form.yard_left, 1)}
    if situation == Situation.OUT:
        went_out = AnyOf(table.players, message=_l("Tap the player who went out."))
        who = str(_read(form, form.who, went_out))
        return {"hands": {who: []}, "yard_count": _count(form, form.yard_count, 0)}
    hands = {
        name: _tiles(entry.form, entry.form.picked)
        for name, entry in zip(table.players, form.players, strict=True)
    }
    data: dict[str, Any] = {"hands": hands, "yard_count": _count(form, form.yard_count, 0)}
    to_move = str(form.to_move.data or "")
    if to_move in table.players:
        data["to_move"] = to_move
    return data


class EdgeCase(StrEnum):
    """The special cases the checker asks the engine about (QUESTIONS.md "edge")."""

    ANNOUNCE = "announce"  # a player down to one tile did not announce it
    CAPACITY = "capacity"  # how many spokes can the centre take
    BLANK_ROUND = "blank"  # a blocked hand of only the double-blank


#: special case -> its question, in players' words
EDGE_CASES: dict[str, Any] = {
    EdgeCase.ANNOUNCE: _l("A player down to one tile did not announce it"),
    EdgeCase.CAPACITY: _l("How many spokes can the centre double take?"),
    EdgeCase.BLANK_ROUND: _l("A blocked round: is a hand of just the double-blank a zero round?"),
}


def _edge_input(form: QuestionForm, table: TableSetting) -> dict[str, Any]:
    """The input of a special case (QUESTIONS.md "edge") from the form."""
    case = str(form.edge.data or "")
    if case == EdgeCase.ANNOUNCE:
        return {
            "kind": "announcement",
            "player": table.players[0],
            "tiles_left": 1,
            "announced": bool(form.announced.data),
            "next_player_has_played": bool(form.next_played.data),
            "yard_count": _count(form, form.yard_count, 0),
        }
    if case == EdgeCase.CAPACITY:
        return {
            "kind": "centre_capacity",
            "requested_center_spokes": _count(form, form.spokes, table.spokes) or table.spokes,
        }
    if case == EdgeCase.BLANK_ROUND:
        return {"kind": "scoring", "round_end": "BLOCKED", "hand": ["0-0"]}
    raise Refused(Problem(_("Choose a special case."), "edge"))


def form_from_question(question: Mapping[str, Any], table: TableSetting) -> MultiDict:
    """The form fields that would ask ``question`` again (to show a saved ruling's form filled
    in, ready for a variation). The inverse of :func:`build_question`."""
    data = question.get("input") or {}
    form: MultiDict = MultiDict()
    move = data.get("move")
    if isinstance(move, Mapping):
        form.add("tile", str(move.get("tile", "")))
        form.add("on", str(move.get("on", "")))
    for tile in data.get("hand") or []:
        form.add("hand", str(tile))
    hands = data.get("hands") or {}
    scores = data.get("round_scores") or {}
    for i, name in enumerate(table.players):
        for tile in hands.get(name) or []:
            form.add(f"hand_{i}", str(tile))
        if name in scores:
            form.add(f"scores_{i}", ", ".join(str(p) for p in scores[name]))
    for key, field_name in (
        ("yard_count", "yard_count"),
        ("tile_drawn", "tile_drawn"),
        ("to_move", "to_move"),
        ("round_end", "round_end"),
    ):
        if data.get(key) is not None:
            form.add(field_name, str(data[key]))
    if question.get("category") == "round_end" and not hands:
        form.add("situation", Situation.PASSED if data.get("yard_count") else Situation.BLOCKED)
    elif question.get("category") == "round_end" and list(hands.values()) == [[]]:
        form.add("situation", Situation.OUT)
        form.add("who", next(iter(hands)))
    if data.get("went_out"):
        form.add("went_out", "1")
    if data.get("last_tile_was_double"):
        form.add("last_double", "1")
    return form


def ask(question: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's answer to ``question`` (never raises; errors come back as an error answer,
    worded in the player's language)."""
    return answer(question, worded=error_words)
