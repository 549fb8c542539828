"""The checker's questions: form fields -> a QUESTIONS.md question -> the engine's answer,
explained for the page (verdict, reason in players' words, the house rules in force, a link to
the rule in the rule book; codes, RULES.md sections and switch ids for the collapsed details).

No rule is decided here: :func:`companion.engine.answer` decides and
:mod:`companion.engine.explain` gives its codes and parameters; :mod:`companion.words` words
them. This module only reads forms and puts the pieces together.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from .. import words
from ..engine import SWITCH_BY_NAME, Layout, Reason, answer
from ..engine.explain import placement_verdict, position_of, round_end_status
from ..rulebook import anchor_for_code, anchor_for_rule, section_for
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

_TILE_TOKEN = re.compile(r"\[?(\d{1,2})[-|:/](\d{1,2})\]?")
_SEPARATOR_SPACES = re.compile(r"\s*([-|:/])\s*")


class FormProblem(Exception):
    """A form field that cannot be turned into a question; ``field`` names it."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class RuleInForce:
    """A house-rule switch that bears on a verdict: its summary and the meaning of its value."""

    name: str
    summary: str
    value: Any
    meaning: str


@dataclass
class Explained:
    """An answer, ready for the page.

    ``message`` is the reason in players' words; ``rule_anchor``/``rule_title`` point to its
    rule in the rule book. ``reason`` (the code), ``rule`` (the RULES.md section),
    ``engine_message`` and the switch ids in ``rules_in_force`` are for the collapsed details.
    """

    category: str
    headline: str
    good: bool | None
    message: str
    rule: str
    reason: str = ""
    reason_words: str = ""
    rules_in_force: list[RuleInForce] = field(default_factory=list)
    error: dict[str, str] | None = None
    facts: list[tuple[str, str]] = field(default_factory=list)
    short: str = ""  # a few words for the reason, for the picture
    engine_message: str = ""
    rule_anchor: str = ""
    rule_title: str = ""
    move_words: str = ""  # "6-4 on the open 4 on the second spoke"


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
            "player": table.players[0],
            "tiles_left": 1,
            "announced": bool(form.get("announced")),
            "next_player_has_played": bool(form.get("next_played")),
            "yard_count": _whole(form, "yard_count", 0),
        }
    if case == EdgeCase.CAPACITY:
        # no player count: with one, the engine would answer the deal instead
        return {
            "requested_center_spokes": _whole(form, "spokes", table.spokes) or table.spokes,
            "players": None,
        }
    if case == EdgeCase.BLANK_ROUND:
        return {"round_end": "BLOCKED", "hand": ["0-0"]}
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


#: reason code -> the switches that reason depends on (RULES.md §9)
REASON_SWITCHES: dict[str, tuple[str, ...]] = {
    Reason.SPOKES_INCOMPLETE: ("center_spokes_required",),
    Reason.CENTER_FULL: ("center_spokes_required",),
    Reason.FOOT_INCOMPLETE: ("foot_toes_required",),
    Reason.FOOT_FULL: ("foot_toes_required",),
    Reason.ONE_TILE_PER_TURN: ("tiles_per_turn",),
    Reason.OUT: ("going_out_on_double",),
    Reason.NO_DRAW: ("yard_reserve", "empty_yard_ends_round"),
    Reason.YARD_NOT_EXHAUSTED: ("yard_reserve", "empty_yard_ends_round"),
}

#: question category -> the switches every answer of it depends on
CATEGORY_SWITCHES: dict[str, tuple[str, ...]] = {
    "draw": (
        "must_play_if_able",
        "draw_when_stuck",
        "drawn_tile_play",
        "yard_reserve",
        "empty_yard_ends_round",
    ),
    "scoring": ("double_blank_value", "blank_half_value", "going_out_on_double"),
    "tiebreak": ("tiebreak_exhausted",),
}


def rules_in_force(rules: Any, category: str, reason: str) -> list[RuleInForce]:
    """The switches of RULES.md §9 the verdict depends on (by its category and reason code:
    a NO_MATCH or OK placement depends on none), each with its summary and the meaning of the
    value in force; a tie-break also shows its steps."""
    names = [*CATEGORY_SWITCHES.get(category, ()), *REASON_SWITCHES.get(reason, ())]
    out = []
    for name in dict.fromkeys(names):
        switch = SWITCH_BY_NAME[name]
        value = getattr(rules, name)
        out.append(RuleInForce(name, switch.summary, value, switch.meaning(value) or str(value)))
    if category == "tiebreak":
        steps = ", ".join(rules.tiebreak)
        labels = " → ".join(words.reason_words(step) for step in rules.tiebreak)
        out.insert(0, RuleInForce("tiebreak", _("Tie-break steps, in order."), steps, labels))
    return out


def _headline(category: str, ans: Mapping[str, Any]) -> tuple[str, bool | None, str]:
    """(headline, good?, reason code) for an answer."""
    if category == "placement":
        legal = bool(ans.get("legal"))
        return (
            str(_l("Yes, it can go there.") if legal else _l("No, it cannot go there.")),
            legal,
            str(ans.get("reason", "")),
        )
    if category == "draw":
        if ans.get("drawn_tile_playable") is not None:
            return _drawn_headline(ans)
        if ans.get("has_legal_play"):
            return str(_l("Play a tile.")), True, str(ans.get("turn_result", "PLAY"))
        if ans.get("must_draw"):
            return (
                str(_l("Draw %(n)s.", n=ans.get("draw_count", 1))),
                None,
                str(ans.get("turn_result", "")),
            )
        return str(_l("Pass.")), None, str(ans.get("turn_result", "PASS"))
    if category == "round_end":
        over = bool(ans.get("round_over"))
        return (
            str(_l("The round is over.") if over else _l("The round goes on.")),
            over,
            str(ans.get("reason", "")),
        )
    if category == "scoring":
        return str(_l("%(n)s points.", n=ans.get("score", 0))), None, ""
    if category == "edge":
        return _edge_headline(ans), None, ""
    winners = ans.get("winners") or []
    if len(winners) > 1:
        return (
            str(_l("Shared win: %(names)s.", names=", ".join(winners))),
            None,
            str(ans.get("decided_at", "")),
        )
    return (
        str(_l("%(name)s wins.", name=", ".join(winners))),
        None,
        str(ans.get("decided_at", "")),
    )


def _edge_headline(ans: Mapping[str, Any]) -> str:
    """The headline of a special case's answer, by the facts it gives."""
    if "penalty_applies" in ans:
        if ans.get("penalty"):
            return _("Penalty: they draw 1 tile.")
        if ans.get("penalty_applies"):
            return _("A penalty, but the chicken yard is empty: nothing to draw.")
        return _("No penalty.")
    if "is_zero_round" in ans:
        if ans.get("is_zero_round"):
            return _("%(n)s points: it counts as a zero round.", n=ans.get("score", 0))
        return _("%(n)s points: not a zero round.", n=ans.get("score", 0))
    if ans.get("feasible") is False:
        return _("Not possible with this set.")
    if "spokes_required" in ans:
        return _("The centre double takes %(k)s spokes.", k=ans["spokes_required"])
    return _("The answer")


def _drawn_headline(ans: Mapping[str, Any]) -> tuple[str, bool | None, str]:
    """The headline about the tile just drawn (RULES.md §5.5), from the engine's
    drawn_tile_playable, must_play_drawn, may_play_drawn and turn_result."""
    result = str(ans.get("turn_result", ""))
    if ans.get("must_play_drawn"):
        return str(_l("Play the drawn tile.")), True, result
    if ans.get("may_play_drawn"):
        return str(_l("You may play the drawn tile, or keep it and pass.")), True, result
    if ans.get("drawn_tile_playable"):
        return str(_l("Keep the drawn tile and pass.")), None, result
    if result == "DRAW_AGAIN":
        return str(_l("The drawn tile cannot be played: draw again.")), None, result
    return str(_l("The drawn tile cannot be played: pass.")), None, result


def explain(
    category: str,
    ans: Mapping[str, Any],
    rules: Any,
    question: Mapping[str, Any] | None = None,
) -> Explained:
    """The page's view of an engine answer (or error answer); with the ``question``, the
    reason is worded from the engine's codes and parameters (ends named as players see them)
    and its facts start with what was judged (the hand, the hands, the tile drawn)."""
    if "error" in ans:
        err = dict(ans["error"])
        return Explained(
            category,
            str(_l("The question could not be answered.")),
            False,
            err.get("message", ""),
            "",
            err.get("code", ""),
            "",
            [],
            err,
            engine_message=err.get("message", ""),
        )
    headline, good, reason = _headline(category, ans)
    section = str(ans.get("rule", ""))
    facts = [*question_facts(question or {}), *_facts(category, ans, question or {})]
    said, move_words = _reason_in_words(category, ans, question or {}, reason)
    part = section_for(section)
    anchor = anchor_for_rule(section) or anchor_for_code(reason)
    return Explained(
        category,
        headline,
        good,
        said,
        section,
        reason,
        words.reason_words(reason),
        rules_in_force(rules, category, reason),
        None,
        facts,
        str(words.SHORT_REASON.get(reason, "")),
        str(ans.get("message", "")),
        anchor,
        str(part.title) if part is not None else "",
        move_words,
    )


def _reason_in_words(
    category: str, ans: Mapping[str, Any], question: Mapping[str, Any], reason: str
) -> tuple[str, str]:
    """(the reason as a sentence in players' words, the move in words) for an answer; the
    engine's own sentence when the category has no worded form (it names no codes)."""
    if category == "placement":
        judged = placement_verdict(question)
        if judged is not None:
            layout, verdict = judged
            typed = (question.get("input") or {}).get("move", {}).get("tile", verdict.tile)
            move = _("%(tile)s on %(end)s", tile=typed, end=words.end_name(layout, verdict.on))
            return words.move_reason(layout, verdict), move
    elif category == "round_end":
        status = round_end_status(question)
        if status is not None:
            yard = (question.get("input") or {}).get("yard_count") or 0
            return words.round_end_reason(status[1], int(yard)), ""
    elif category == "tiebreak":
        return words.tiebreak_reason(ans), ""
    elif category == "draw":
        return _draw_reason(ans, question), ""
    return str(ans.get("message") or words.reason_words(reason)), ""


def _draw_reason(ans: Mapping[str, Any], question: Mapping[str, Any]) -> str:
    """What the player must do and why (RULES.md §5.5), with the legal plays in words."""
    layout = position_of(question)
    plays = ans.get("legal_plays") or []
    if ans.get("drawn_tile_playable") is not None:
        return str(ans.get("message", ""))
    if plays and layout is not None:
        return _("You can play %(plays)s.", plays=words.play_list(layout, plays))
    if ans.get("must_draw"):
        return ngettext(
            "No tile in your hand fits an open end: draw %(num)s tile from the chicken yard; "
            "if it fits, see what the house rules say about playing it.",
            "No tile in your hand fits an open end: draw %(num)s tiles from the chicken yard.",
            int(ans.get("draw_count") or 1),
        )
    if ans.get("may_draw"):
        return _("You may draw a tile from the chicken yard, or pass.")
    return _("No tile in your hand fits an open end and nothing can be drawn: pass.")


def question_facts(question: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a question judged, as (label, value) pairs: the hand (draw, scoring), each
    player's hand (round end), the yard count and the tile just drawn."""
    data = question.get("input") or {}
    out: list[tuple[str, str]] = []
    category = question.get("category")
    if category in ("draw", "scoring"):
        hand = ", ".join(str(t) for t in data.get("hand") or [])
        out.append((str(_l("Hand")), hand or str(_l("empty"))))
    hands = data.get("hands")
    if category == "round_end" and isinstance(hands, Mapping):
        for name, tiles in hands.items():
            label = str(_l("%(name)s's hand", name=name))
            out.append((label, ", ".join(str(t) for t in tiles or []) or str(_l("empty"))))
    if category in ("draw", "round_end") and data.get("yard_count") is not None:
        out.append((str(_l("Tiles in the chicken yard")), str(data["yard_count"])))
    if data.get("tile_drawn"):
        out.append((str(_l("Tile just drawn")), str(data["tile_drawn"])))
    return out


def _facts(
    category: str, ans: Mapping[str, Any], question: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """A few answer fields worth showing as a list (label, value)."""
    out: list[tuple[str, str]] = []
    layout = position_of(question) if category == "draw" else None
    if category == "draw" and ans.get("legal_plays") and layout is not None:
        out.append((str(_l("Legal plays")), words.play_list(layout, ans["legal_plays"])))
    if category == "round_end" and ans.get("scores"):
        out.append((str(_l("Scores")), ", ".join(f"{p}: {s}" for p, s in ans["scores"].items())))
    if category == "tiebreak":
        for key, label in (
            ("totals", _l("Totals")),
            ("zero_rounds", _l("Zero rounds")),
            ("best_nonzero_round", _l("Best non-zero round")),
        ):
            values = ans.get(key) or {}
            out.append((str(label), ", ".join(f"{p}: {v}" for p, v in values.items())))
    return out


def ask(question: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's answer to ``question`` (never raises; errors come back as an error answer)."""
    return answer(question)


def summary(question: Mapping[str, Any], explained: Explained) -> str:
    """One line for the rulings list, in players' words (at most 300 characters)."""
    prefix = f"{explained.move_words}: " if explained.move_words else ""
    return f"{prefix}{explained.headline} {explained.message}"[:300]


def switch_label(name: str) -> str:
    """A switch's one-line summary (its name when unknown)."""
    switch = SWITCH_BY_NAME.get(name)
    return switch.summary if switch else name
