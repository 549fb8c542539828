"""The checker's questions: form fields -> a QUESTIONS.md question -> the engine's answer
(and back: a saved question -> the form that asks it again). The answer is put in words for the
page by :mod:`companion.checker.explaining`.

No rule is decided here: :func:`companion.engine.answer` decides; this module only reads forms,
including what the table knows when it asks whether the round is over, without every hand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ..engine import Layout, answer
from ..engine.tiles import TILE_SEPARATOR, TILE_TEXT
from ..words import error_words
from .context import Table

#: question tab -> (QUESTIONS.md category, title)
QUESTIONS: dict[str, tuple[str, Any]] = {
    "move": ("placement", _l("Can this tile go here?")),
    "draw": ("draw", _l("What must I do?")),
    "end": ("round_end", _l("Is the round over?")),
    "score": ("scoring", _l("What does this hand score?")),
    "tie": ("tiebreak", _l("Who wins this tie?")),
    "edge": ("edge", _l("Special cases")),
}

_TILE_TOKEN = re.compile(TILE_TEXT)
_SEPARATOR_SPACES = re.compile(rf"\s*({TILE_SEPARATOR})\s*")


class FormProblem(Exception):
    """A form field that cannot be turned into a question; ``field`` names it."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


def typed_tiles(text: str, field_name: str) -> list[str]:
    """The tiles typed in ``text`` (``"9-5 5-4, 0-0"``; ``-``, ``|``, ``:`` or ``/`` between
    the numbers), each written ``a-b``.

    Raises FormProblem naming the first word that is not a tile: a typo must refuse the
    question, never be dropped (dropping it would judge another hand).
    """
    joined = _SEPARATOR_SPACES.sub(r"\1", text.strip())
    out = []
    for token in (t for t in re.split(r"[\s,;]+", joined) if t):
        match = _TILE_TOKEN.fullmatch(token)
        if match is None:
            raise FormProblem(
                field_name,
                _("Could not read '%(token)s' as a tile; write tiles like 5-0.", token=token),
            )
        out.append(f"{match.group(1)}-{match.group(2)}")
    return out


def tiles_from_form(form: Mapping[str, Any], name: str) -> list[str]:
    """The tiles ticked in picker ``name`` plus those typed in ``name_text``, in order.

    Raises FormProblem (field ``name``) for an unreadable typed word or for a tile given twice
    (ticked and typed, or typed twice, in either order: 4-3 and 3-4 are one tile). Whether
    each tile is in the set is the engine's check.
    """
    picked = list(form.getlist(name)) if hasattr(form, "getlist") else list(form.get(name, []))
    typed = typed_tiles(str(form.get(f"{name}_text", "")), name)
    out: list[str] = []
    seen: set[tuple[str, ...]] = set()
    for text in [*picked, *typed]:
        key = tuple(sorted(text.split("-")))
        if key in seen:
            raise FormProblem(name, _("%(tile)s is in the hand twice.", tile=text))
        seen.add(key)
        out.append(text)
    return out


def _whole(form: Mapping[str, Any], name: str, default: int | None = None) -> int:
    raw = str(form.get(name, "") or "").strip()
    if not raw:
        if default is None:
            raise FormProblem(name, _("Enter a number."))
        return default
    if not raw.isdigit():
        raise FormProblem(name, _('"%(raw)s" is not a whole number.', raw=raw))
    return int(raw)


def _scores(text: str, field_name: str) -> list[int]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not parts:
        raise FormProblem(field_name, _("Enter this player's round scores, e.g. 12, 0, 30."))
    out = []
    for part in parts:
        if not re.fullmatch(r"-?\d{1,6}", part):
            raise FormProblem(field_name, _('"%(part)s" is not a score in points.', part=part))
        out.append(int(part))
    return out


def _all_scores(form: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, list[int]]:
    """Each player's round scores; raises FormProblem when they played different numbers of
    rounds (a tie-break compares whole games, RULES.md §8: a round is missing somewhere)."""
    scores = {
        name: _scores(str(form.get(f"scores_{i}", "")), f"scores_{i}")
        for i, name in enumerate(players)
    }
    counts = {len(points) for points in scores.values()}
    if len(counts) > 1:
        each = ", ".join(f"{name}: {len(points)}" for name, points in scores.items())
        raise FormProblem(
            "scores_0",
            _(
                "Every player needs a score for each round, but the numbers of rounds "
                "differ (%(each)s).",
                each=each,
            ),
        )
    return scores


def build_question(
    tab: str, form: Mapping[str, Any], table: Table, layout: Layout | None
) -> dict[str, Any]:
    """The QUESTIONS.md question for question tab ``tab`` from the posted ``form``.

    Raises FormProblem for a missing or unreadable field, or when the question needs a
    position and there is none.
    """
    if tab not in QUESTIONS:
        raise FormProblem("q", _("Choose a question."))
    category = QUESTIONS[tab][0]
    data: dict[str, Any] = dict(table.base_input())
    needs_layout = tab in ("move", "draw", "end")
    if needs_layout:
        if layout is None:
            raise FormProblem("pos", _("Fix the position first."))
        data["layout"] = layout.to_json()
    if tab == "move":
        tile, on = str(form.get("tile") or ""), str(form.get("on") or "")
        if not tile:
            raise FormProblem("tile", _("Tap the tile to play."))
        if not on:
            raise FormProblem("on", _("Tap the end to play it on."))
        data["move"] = {"tile": tile, "on": on}
    elif tab == "draw":
        data["hand"] = tiles_from_form(form, "hand")
        if not data["hand"]:
            raise FormProblem("hand", _("Enter your hand: tick its tiles or type them."))
        data["yard_count"] = _whole(form, "yard_count", 0)
        drawn = str(form.get("tile_drawn") or "").strip()
        if drawn:
            data["tile_drawn"] = drawn
    elif tab == "end":
        data.update(_round_end_input(form, table))
    elif tab == "score":
        data["hand"] = tiles_from_form(form, "hand")
        data["went_out"] = bool(form.get("went_out"))
        data["last_tile_was_double"] = bool(form.get("last_double"))
        data["round_start_double"] = table.centre
        if form.get("round_end") in ("OUT", "BLOCKED"):
            data["round_end"] = form.get("round_end")
    elif tab == "edge":
        data.update(_edge_input(form, table))
    else:
        data["round_scores"] = _all_scores(form, table.players)
    return {"category": category, "ruleset": table.ruleset_spec(), "input": data}


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


def _round_end_input(form: Mapping[str, Any], table: Table) -> dict[str, Any]:
    """The round-end input for what the table knows: no hands when the situation says enough
    (nobody can play: hands that cannot play add nothing; someone went out: their empty
    hand), every hand when the table is not sure."""
    # a "<name> went out" button sends only ``who``
    situation = str(form.get("situation") or (Situation.OUT if form.get("who") else "hands"))
    if situation == Situation.BLOCKED:
        return {"hands": {}, "yard_count": 0}
    if situation == Situation.PASSED:
        yard = _whole(form, "yard_left", 1)
        if yard < 1:
            raise FormProblem("yard_left", _("Enter how many tiles are in the chicken yard."))
        return {"hands": {}, "yard_count": yard}
    if situation == Situation.OUT:
        who = str(form.get("who") or "")
        if who not in table.players:
            raise FormProblem("who", _("Tap the player who went out."))
        return {"hands": {who: []}, "yard_count": _whole(form, "yard_count", 0)}
    data: dict[str, Any] = {
        "hands": {name: tiles_from_form(form, f"hand_{i}") for i, name in enumerate(table.players)},
        "yard_count": _whole(form, "yard_count", 0),
    }
    to_move = str(form.get("to_move") or "")
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


def _edge_input(form: Mapping[str, Any], table: Table) -> dict[str, Any]:
    """The input of a special case (QUESTIONS.md "edge") from the form."""
    case = str(form.get("edge") or "")
    if case == EdgeCase.ANNOUNCE:
        return {
            "kind": "announcement",
            "player": table.players[0],
            "tiles_left": 1,
            "announced": bool(form.get("announced")),
            "next_player_has_played": bool(form.get("next_played")),
            "yard_count": _whole(form, "yard_count", 0),
        }
    if case == EdgeCase.CAPACITY:
        return {
            "kind": "centre_capacity",
            "requested_center_spokes": _whole(form, "spokes", table.spokes) or table.spokes,
        }
    if case == EdgeCase.BLANK_ROUND:
        return {"kind": "scoring", "round_end": "BLOCKED", "hand": ["0-0"]}
    raise FormProblem("edge", _("Choose a special case."))


def form_from_question(question: Mapping[str, Any], table: Table) -> MultiDict:
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
